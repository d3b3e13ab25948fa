"""The browser tests' pages (conftest.Tabs): a page a test gave back comes to the next test
as a new one would, with nothing of the test before it."""

from __future__ import annotations

from playwright.sync_api import BrowserContext

from .conftest import Tabs

MEDIA = "[matchMedia('print').matches, matchMedia('(prefers-color-scheme: dark)').matches]"


def test_a_page_given_back_keeps_nothing_of_its_test(context: BrowserContext,
                                                     base_url: str) -> None:
    tabs = Tabs(context)
    first = tabs.take(390, 844, "dark")
    heard: list[str] = []
    first.on("request", lambda request: heard.append(request.url))
    first.route("**/*.css", lambda route: route.abort())
    first.goto(base_url)
    first.emulate_media(media="print")
    assert heard and first.evaluate(MEDIA) == [True, True]
    tabs.give_back(first)

    heard.clear()
    failed: list[str] = []
    again = tabs.take(1280, 900, "light")
    again.on("requestfailed", lambda request: failed.append(request.url))
    again.goto(base_url)
    assert again is first  # the same page, taken again
    assert (heard, failed) == ([], [])  # the last test's listener and route are gone
    assert again.viewport_size == {"width": 1280, "height": 900}
    assert again.evaluate(MEDIA) == [False, False]  # on screen, light
    tabs.give_back(again)
    closed = tabs.take()
    closed.close()  # a test may close its page: it is not given to the next
    tabs.give_back(closed)
    assert tabs.idle == []
