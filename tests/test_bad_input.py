"""The bad-input corpus: every case exits 1 with `path:line: message`, no traceback,
and leaves the site that was there before byte-identical."""

from __future__ import annotations

import os
from collections.abc import Callable

import pytest

from .conftest import Project, Run

CLI = Callable[..., Run]
M = "mkdocs.yml"
R = "content/acme/widgets/12/pr.yml"
P = "content/acme/widgets/12/cache-bug.md"
# The body starts on line 6; order and updated share the first line (a flow mapping).
FM = "---\n{title: T, order: 1, updated: 2026-01-05,\n question: q,\n status: open}\n---\n"
BLOCK_FM = "---\ntitle: T\nquestion: q\nstatus: open\n{}\n---\n"  # line 5 on: the fields given
GOOD_M = "site_name: R\nsite_url: https://x.org/\ndocs_dir: content\n"
GOOD_R = ("repo: acme/widgets\nnumber: 12\ntitle: T\nhead: 1234567\nstate: open\n"
          "files: [src/widgets/core.py, src/widgets/util.py, src/gears/util.py]\n"
          "code_unavailable: a made-up pull request\n")
FLOW = "```flow\nlane a: A\nlane b: B\n{}\n```\n"
PROPOSAL = "```proposal\nfile: core.py L1\n{}\n```\n"

# (id, {path: text, or bytes, or a special}, expected messages)
CASES: list[tuple[str, dict[str, object], list[str]]] = [
    # mkdocs.yml
    ("config-yaml", {M: "site_name: [R\n"},
     [f"{M}:2: invalid YAML: did not find expected ',' or ']'"]),
    ("config-tab", {M: "site_name: R\n\tdocs_dir: content\n"},
     [f"{M}:2: invalid YAML: found a tab character that violates indentation; indent with "
      "spaces, not tabs"]),
    ("config-empty", {M: ""}, [f"{M}:1: expected a mapping of settings at the top level"]),
    ("config-list", {M: "- a\n"}, [f"{M}:1: expected a mapping of settings at the top level"]),
    ("config-no-site-name", {M: "docs_dir: content\n"}, [f"{M}:1: 'site_name' is required"]),
    ("config-nested-300", {M: GOOD_M + "extra:\n  deep: " + "[" * 300 + "]" * 300 + "\n"},
     [f"{M}:5: the YAML here is nested more than 50 levels deep; expected plain values"]),
    ("fm-nested-300", {P: "---\ntitle: T\nquestion: q\nstatus: open\norder: 1\n"
                          "updated: 2026-01-05\nsummary: " + "[" * 300 + "]" * 300 + "\n---\n"},
     [f"{P}:7: the YAML here is nested more than 50 levels deep; expected plain values"]),
    ("config-strict-type", {M: GOOD_M + "strict: sometimes\n"},
     [f"{M}:4: 'strict' must be true or false, found 'sometimes'"]),
    ("config-theme-name", {M: GOOD_M + "theme: material\n"},
     [f"{M}:4: 'theme' is 'material', but site_gen has one theme of its own; leave the name "
      "out (or write site_gen), and shadow single templates with theme.custom_dir"]),
    ("config-theme-type", {M: GOOD_M + "theme: [material]\n"},
     [f"{M}:4: 'theme' must be a mapping like {{name: site_gen, custom_dir: overrides}}, or "
      "the name site_gen, found a list"]),
    ("config-nav-item", {M: GOOD_M + "nav:\n  - acme/widgets/12\n  - 7\n"},
     [f"{M}:6: 'nav' entries must be folder paths like 'owner/repo/123', found 7"]),
    ("config-nav-missing", {M: GOOD_M + "nav:\n  - acme/widgets/12\n  - acme/widgets/13\n"},
     [f"{M}:6: 'nav' names 'acme/widgets/13', which is not a pull request folder; expected one "
      "of: acme/widgets/12"]),
    ("config-extra-css-item", {M: GOOD_M + "extra_css:\n  - a.css\n  - https://cdn.example/b.css\n"},
     [f"{M}:6: 'extra_css' entries must be .css files inside docs_dir, like 'assets/extra.css' "
      "(nothing from other hosts); found 'https://cdn.example/b.css'"]),
    ("config-duplicate-key", {M: GOOD_M + "site_name: again\n"},
     [f"{M}:4: invalid YAML: duplicate key 'site_name'"]),
    ("config-env-tag", {M: GOOD_M + "copyright: !ENV {a: 1}\n"},
     [f"{M}:4: invalid YAML: !ENV expects a variable name or a list [NAME, ..., default]"]),
    ("config-unknown-tag", {M: GOOD_M + "copyright: !python/object x\n"},
     [f"{M}:4: invalid YAML: could not determine a constructor for the tag "
      "'!python/object'"]),
    ("config-permalink", {M: GOOD_M + "site_gen:\n  code_host:\n    permalink: x\n"},
     [f"{M}:6: 'site_gen.code_host.permalink' must contain {{repo}}, {{commit}}, {{path}}, "
      "{lines}; found 'x'"]),
    ("config-status-tone", {M: GOOD_M + "site_gen:\n  statuses:\n    open: {tone: pink}\n"},
     [f"{M}:6: unknown tone 'pink' for status 'open'; expected one of: danger, warning, "
      "success, info, neutral, done"]),
    ("config-status-entry", {M: GOOD_M + "site_gen:\n  statuses:\n    open: red\n"},
     [f"{M}:6: 'site_gen.statuses.open' must be a mapping with label, tone, icon and for; "
      "found 'red'"]),
    ("config-raw-html", {M: GOOD_M + "site_gen:\n  raw_html: yes please\n"},
     [f"{M}:5: 'site_gen.raw_html' must be true or false, found 'yes please'"]),
    ("config-checkout", {M: GOOD_M + "site_gen:\n  checkout: nowhere\n"},
     [f"{M}: checkout '{{root}}/nowhere' is not a git repository; expected a local clone of the "
      "reviewed repository"]),
    ("config-nav", {M: GOOD_M + "nav: [acme/nope/1]\n"},
     [f"{M}:4: 'nav' names 'acme/nope/1', which is not a pull request folder; expected one of: "
      "acme/widgets/12"]),
    ("config-site-dir-root", {M: GOOD_M + "site_dir: .\n"},
     [f"{M}: site_dir '{{root}}' would replace the project folder; expected a folder of its "
      "own, like 'site'"]),
    ("config-site-dir-docs", {M: GOOD_M + "site_dir: content\n"},
     [f"{M}: site_dir '{{root}}/content' would replace docs_dir; expected a folder of its own, "
      "like 'site'"]),
    ("config-docs-missing", {M: "site_name: R\nsite_url: https://x.org/\ndocs_dir: nope\n"},
     [f"{M}: docs_dir 'nope' is not a folder; expected the folder of the pages, beside "
      "mkdocs.yml"]),
    ("config-docs-mistyped", {M: "site_name: R\nsite_url: https://x.org/\ndocs_dir: contnet\n"},
     [f"{M}: docs_dir 'contnet' is not a folder; did you mean 'content'? expected the folder "
      "of the pages, beside mkdocs.yml"]),
    ("config-is-a-folder", {M: "<dir>"}, [f"{M}: cannot read config file: Is a directory"]),
    # pr.yml
    ("pr-yaml", {R: "repo: [acme\n"}, [f"{R}:2: invalid YAML: did not find expected ',' or ']'"]),
    ("pr-empty", {R: ""}, [f"{R}:1: pr.yml must be a mapping of fields, found nothing"]),
    ("pr-missing-fields", {R: "repo: acme/widgets\nnumber: 12\n"},
     [f"{R}:1: pr.yml needs 'title'", f"{R}:1: pr.yml needs 'head'",
      f"{R}:1: pr.yml needs 'state'"]),
    ("pr-number", {R: GOOD_R.replace("number: 12", "number: -4")},
     [f"{R}:2: 'number' must be a positive whole number, found -4"]),
    ("pr-head-branch", {R: GOOD_R.replace("head: 1234567", "head: main")},
     [f"{R}:4: 'head' must be a commit SHA (7 to 40 hex digits), found 'main'; a branch or tag "
      "name would drift"]),
    ("pr-head-short", {R: GOOD_R.replace("head: 1234567", "head: 12345")},
     [f"{R}:4: 'head' must be a commit SHA (7 to 40 hex digits), found '12345'; a branch or "
      "tag name would drift"]),
    ("pr-state", {R: GOOD_R.replace("state: open", "state: fixed")},
     [f"{R}:5: unknown PR state 'fixed'; expected one of: open, draft, merged, closed"]),
    ("pr-files", {R: GOOD_R.replace("files: [src/widgets/core.py, src/widgets/util.py, "
                                    "src/gears/util.py]", "files: core.py")},
     [f"{R}:6: 'files' must be a list of paths in the repository, like 'src/pkg/module.py'"]),
    ("pr-unknown-field", {R: GOOD_R + "reviewer: ana\n"},
     [f"{R}:8: unknown field 'reviewer' in pr.yml; expected one of: base, code_unavailable, "
      "files, head, history, number, repo, state, title"]),
    # a field mistyped is one error, at it, that names the field it stands for (not also
    # that field missing)
    ("pr-misspelt-field", {R: GOOD_R.replace("number: 12", "numbr: 12")},
     [f"{R}:2: unknown field 'numbr' in pr.yml; did you mean 'number'? expected one of: base, "
      "code_unavailable, files, head, history, number, repo, state, title"]),
    ("pr-colon-without-space", {R: GOOD_R.replace("title: T", "title:fix: T")},
     [f"{R}:3: unknown field 'title:fix' in pr.yml; did you mean 'title'? expected one of: "
      "base, code_unavailable, files, head, history, number, repo, state, title"]),
    # a field's name cut short, or run into its value, stands for the field not given
    ("pr-quote-cut", {R: GOOD_R.replace("title: T", 'title"EIP7702Utils: x')},
     [f"{R}:3: unknown field 'title\"EIP7702Utils' in pr.yml; did you mean 'title'? expected one of: "
      "base, code_unavailable, files, head, history, number, repo, state, title"]),
    ("fm-name-cut", {P: BLOCK_FM.format("er: 1\nupdated: 2026-01-05")},
     [f"{P}:5: unknown field 'er' in front matter; did you mean 'order'? expected one of: draft, "
      "order, question, status, summary, title, updated"]),
    ("pr-wrong-folder", {R: GOOD_R.replace("number: 12", "number: 13")},
     [f"{R}:1: acme/widgets#13 belongs in the folder 'acme/widgets/13', found 'acme/widgets/12'"]),
    ("pr-no-pages", {P: "<delete>"},
     [f"{R}:1: a pull request folder needs at least one question page (a .md file)"]),
    # front matter
    ("fm-missing", {P: "# Just a heading\n"},
     [f"{P}:1: missing front matter; expected the page to start with a '---' line, its "
      "fields, and another '---' line"]),
    ("fm-unclosed", {P: "---\ntitle: T\n"},
     [f"{P}:1: front matter is not closed; expected a '---' line after its fields"]),
    ("fm-yaml", {P: "---\ntitle: T\nquestion: 'q\n---\n"},
     [f"{P}:4: invalid YAML: found unexpected end of stream; a quote or bracket is opened and "
      "never closed"]),
    ("fm-not-mapping", {P: "---\n- a\n---\n"},
     [f"{P}:2: front matter must be a mapping of fields, found a list"]),
    ("fm-missing-fields", {P: "---\norder: 1\n---\n"},
     [f"{P}:2: front matter needs 'title'", f"{P}:2: front matter needs 'question'",
      f"{P}:2: front matter needs 'status'",
      f"{P}:2: front matter needs 'updated': add a line like 'updated: 2026-01-31' (the date of "
      "your latest change, shown on the home page and the feed)"]),
    ("fm-yaml-colon", {P: "---\ntitle: Why: the cache\nquestion: q\nstatus: open\n---\n"},
     [f"{P}:2: invalid YAML: mapping values are not allowed in this context; a value that "
      "contains ': ' needs quotes, like title: \"Why: the cache\""]),
    ("fm-no-order", {P: "---\ntitle: T\nquestion: q\nstatus: open\nupdated: 2026-01-05\n---\n"},
     [f"{P}:2: front matter needs 'order': add a line like 'order: 1' (the page's place among "
      "its pull request's pages)"]),
    ("fm-error-and-body-error", {P: "---\ntitle: T\nquestion: q\nstatus: opened\norder: 1\n"
                                    "updated: 2026-01-05\n---\n[[nope.py:1]]\n"},
     [f"{P}:4: unknown status 'opened'; did you mean 'open'? expected one of: unresolved (or open), fixed, "
      "proposed, wontfix",
      f"{P}:8: unknown file 'nope.py' in '[[nope.py:1]]'; it is not among the files listed in "
      "pr.yml (nearest by name: src/widgets/core.py, src/gears/util.py, src/widgets/util.py)"]),
    ("fm-status", {P: FM.replace("status: open", "status: closed")},
     [f"{P}:4: unknown status 'closed'; expected one of: unresolved (or open), fixed, proposed, wontfix"]),
    ("fm-order", {P: BLOCK_FM.format("order: 1.5\nupdated: 2026-01-05")},
     [f"{P}:5: 'order' must be a whole number, found 1.5"]),
    ("fm-updated", {P: BLOCK_FM.format("updated: 2026-13-01\norder: 1")},
     [f"{P}:5: invalid YAML: '2026-13-01' is not a real date (month must be in 1..12)"]),
    ("fm-summary", {P: BLOCK_FM.format("summary: short\norder: 1\nupdated: 2026-01-05")},
     [f"{P}:5: 'summary' must be a mapping with before, this_pr and status, found 'short'"]),
    ("fm-summary-field", {P: BLOCK_FM.format("summary:\n  after: x\norder: 1\nupdated: 2026-01-05")},
     [f"{P}:6: unknown field 'after' in summary; expected one of: before, status, this_pr"]),
    ("fm-unknown", {P: BLOCK_FM.format("tags: [a]\norder: 1\nupdated: 2026-01-05")},
     [f"{P}:5: unknown field 'tags' in front matter; expected one of: draft, order, question, status, "
      "summary, title, updated"]),
    ("fm-misspelt", {P: BLOCK_FM.format("order: 1\nupadted: 2026-01-05")},
     [f"{P}:6: unknown field 'upadted' in front matter; did you mean 'updated'? expected one of: "
      "draft, order, question, status, summary, title, updated"]),
    ("fm-title-type", {P: FM.replace("title: T", "title: {a: 1}")},
     [f"{P}:2: 'title' must be text, found a mapping"]),
    # code references
    ("ref-unknown", {P: FM + "[[nope.py:1]]\n"},
     [f"{P}:6: unknown file 'nope.py' in '[[nope.py:1]]'; it is not among the files listed in "
      "pr.yml (nearest by name: src/widgets/core.py, src/gears/util.py, src/widgets/util.py)"]),
    ("ref-ambiguous", {P: FM + "\ntext [[util.py:2]]\n"},
     [f"{P}:7: ambiguous file name 'util.py' in '[[util.py:2]]'; it matches src/widgets/util.py, "
      "src/gears/util.py; write more of the path"]),
    ("ref-branch", {P: FM + "[[core.py:1@develop]]\n"},
     [f"{P}:6: 'develop' in '[[core.py:1@develop]]' is not a commit SHA; expected 7 to 40 hex "
      "digits or @base (a branch or tag name drifts)"]),
    ("ref-base-missing", {P: FM + "[[core.py:1@base]]\n"},
     [f"{P}:6: '[[core.py:1@base]]' pins @base, but pr.yml has no 'base' commit"]),
    ("ref-range", {P: FM + "[[core.py:10-2]]\n"},
     [f"{P}:6: line range 10-2 in '[[core.py:10-2]]' is empty; expected the first line not "
      "after the last"]),
    ("ref-line-zero", {P: FM + "[[core.py L0-L3]]\n"},
     [f"{P}:6: line 0 in '[[core.py L0-L3]]' does not exist; expected a line number from 1, "
      "as GitHub numbers them"]),
    ("ref-malformed", {P: FM + "[[core.py:x]]\n"},
     [f"{P}:6: malformed code reference '[[core.py:x]]'; expected [[file:line]], "
      "[[file:start-end]], [[file Lstart-Lend]] or [[file::symbol]], then optionally "
      "@commit, \"quoted code\" and |label"]),
    # a `[[` never closed was shown as it is, a broken link, without a word; in a table's
    # cell, a bare `|` in a reference ends the cell
    ("ref-unclosed", {P: FM + "See\n[[core.py:1 and more, [[[[ once.\n"},
     [f"{P}:7: '[[core.py:1 and more, [[[[ once.' opens a code reference that is never "
      "closed; expected ']]' after it"]),
    ("ref-unclosed-cell", {P: FM + "| where | what |\n|---|---|\n| [[core.py:1|the line]] | x |\n"},
     [f"{P}:8: '[[core.py:1' opens a code reference that is never closed; expected ']]' after "
      "it (in a table's cell, a '|' of a reference is written '\\|')"]),
    # blocks
    ("claim-misspelt", {P: FM + "```claim\nsays: x\ncou: 2\ntext: y\n```\n"},
     [f"{P}:8: 'cou: 2' is not a line of a claim; did you mean 'count:'? expected 'says:', "
      "'count:', 'pattern:' or 'text:', and optionally 'where:', 'inside:', 'in:', 'at:', 'id:'"]),
    ("claim-cut-field", {P: FM + "```claim\nsays: x\nnt: all\nwhere: y\ntext: y\n```\n"},
     [f"{P}:8: 'nt: all' is not a line of a claim; did you mean 'count:'? expected 'says:', "
      "'count:', 'pattern:' or 'text:', and optionally 'where:', 'inside:', 'in:', 'at:', 'id:'"]),
    ("claim-colon-lost", {P: FM + "```claim\nsays: x\ncount 2\ntext: y\n```\n"},
     [f"{P}:8: 'count 2' is not a line of a claim; did you mean 'count:'? expected 'says:', "
      "'count:', 'pattern:' or 'text:', and optionally 'where:', 'inside:', 'in:', 'at:', 'id:'"]),
    ("claim-word-alone", {P: FM + "```claim\nsays: x\ncount: 1\npatte\nid\n```\n"},
     [f"{P}:9: 'patte' is not a line of a claim; did you mean 'pattern:'? expected 'says:', "
      "'count:', 'pattern:' or 'text:', and optionally 'where:', 'inside:', 'in:', 'at:', 'id:'",
      f"{P}:10: 'id' is not a line of a claim; did you mean 'id:'? expected 'says:', "
      "'count:', 'pattern:' or 'text:', and optionally 'where:', 'inside:', 'in:', 'at:', 'id:'"]),
    ("claim-misspelt-id", {P: FM + "See [[claim:c1]].\n\n```claim\n{id: c1\nsays: x\n"
                                   "count: 1\ntext: y\n```\n"},  # not also: no claim c1
     [f"{P}:9: '{{id: c1' is not a line of a claim; did you mean 'id:'? expected 'says:', "
      "'count:', 'pattern:' or 'text:', and optionally 'where:', 'inside:', 'in:', 'at:', 'id:'"]),
    ("flow-line", {P: FM + FLOW.format("step: s\nwhat is this")},
     [f"{P}:10: malformed flow line 'what is this'; expected one of: 'title:', 'lane NAME:', "
      "'step:', 'step LANE:', 'note:', 'outcome LANE: VERDICT: text', 'source: [[ref]] code'"]),
    ("flow-no-steps", {P: FM + FLOW.format("")},
     [f"{P}:7: lane 'a' has no steps; expected 'step:' or 'step a:' lines",
      f"{P}:8: lane 'b' has no steps; expected 'step:' or 'step b:' lines"]),
    ("flow-align", {P: FM + FLOW.format("step a: x")},
     [f"{P}:9: lanes do not line up: step 1 has no line for lane 'b'; a step that differs "
      "needs a 'step LANE:' line for every lane"]),
    ("flow-verdict", {P: FM + FLOW.format("step: x\noutcome a: fine: x\noutcome b: right: y")},
     [f"{P}:10: unknown verdict 'fine'; expected one of: right, wrong, luck"]),
    ("diff-line", {P: FM + PROPOSAL.format("-a\n+b\nplain")},
     [f"{P}:10: 'plain' is not a diff line; expected a line starting with ' ', '+' or '-', "
      "'...' for lines left out, '@@ -a,b +c,d @@', or git's '\\ No newline at end of "
      "file'"]),
    ("diff-header", {P: FM + "```proposal\nfile:\n-a\n```\n"},
     [f"{P}:7: malformed hunk header 'file:'; expected 'file: PATH Lstart-Lend · symbol'"]),
    ("diff-counts", {P: FM + PROPOSAL.format("@@ -1,2 +1,2 @@\n-a\n+b")},
     [f"{P}:8: hunk line counts do not match its header: '@@ -1,2 +1,2 @@' but the lines give "
      "-1,1 +1,1"]),
    ("diff-status", {P: FM + "```proposal\nstatus: someday\nfile: core.py\n-a\n```\n"},
     [f"{P}:7: unknown status 'someday'; expected one of: unresolved (or open), fixed, proposed, wontfix"]),
    ("callout-severity", {P: FM + "::: review urgent\nx\n:::\n"},
     [f"{P}:6: unknown severity 'urgent'; expected one of: blocking, suggestion, note"]),
    ("callout-malformed", {P: FM + "::: review blocking core.py:1\nx\n:::\n"},
     [f"{P}:6: malformed review callout '::: review blocking core.py:1'; expected "
      "'::: review SEVERITY [[file:line]]', optionally followed by the review thread's "
      "https:// address"]),
    ("badge", {P: FM + "State: :badge[shipped]\n"},
     [f"{P}:6: unknown badge ':badge[shipped]'; expected one of: open, draft, merged, closed, "
      "unresolved, fixed, proposed, wontfix, blocking, suggestion, note, right, wrong, luck"]),
    # links
    ("link-javascript", {P: FM + "[x](javascript:alert(1))\n"},
     [f"{P}:6: link to 'javascript:alert(1)' is refused: javascript: URLs can run code or hide "
      "content; expected an https:// address or a file of the site"]),
    ("image-data", {P: FM + "![x](data:image/svg+xml;base64,PHN2Zz4=)\n"},
     [f"{P}:6: image to 'data:image/svg+xml;base64,PHN2Zz4=' is refused: data: URLs can run "
      "code or hide content; expected an https:// address or a file of the site"]),
    ("link-climbs", {P: FM + "[x](../../../../secrets.txt)\n"},
     [f"{P}:6: link to '../../../../secrets.txt' climbs out of docs_dir; expected a file "
      "inside it"]),
    # file names and the file system
    ("file-name", {"content/acme/widgets/12/Two Words.md": FM},
     ["content/acme/widgets/12/Two Words.md: page file name 'Two Words.md' must be lower-case "
      "letters, digits and '-', ending in .md (it becomes the URL)"]),
    ("stray-page", {"content/acme/notes.md": FM},
     ["content/acme/notes.md: page outside a pull request folder; expected it beside a pr.yml"]),
    ("not-utf8", {P: b"---\ntitle: caf\xe9\n---\n"},
     [f"{P}:2: not valid UTF-8 (byte 0xe9); expected a UTF-8 text file"]),
    ("empty-page", {P: ""},
     [f"{P}:1: missing front matter; expected the page to start with a '---' line, its "
      "fields, and another '---' line"]),
    ("page-is-a-folder", {"content/acme/widgets/12/dir.md": "<dir>"},
     ["content/acme/widgets/12/dir.md: is a folder, expected a file"]),
    ("pr-is-a-folder", {R: "<dir>"},
     [f"{R}: is a folder, expected a file"]),
    ("unreadable-page", {"content/acme/widgets/12/link.md": "<dangling>"},
     ["content/acme/widgets/12/link.md: cannot read file: No such file or directory"]),
    ("link-outside", {"content/acme/widgets/12/passwd.md": "<outside>"},
     ["content/acme/widgets/12/passwd.md: is a link to a file outside docs_dir; expected "
      "content to live inside docs_dir"]),
    ("crlf-lines", {P: FM.replace("status: open", "status: nope").replace("\n", "\r\n")},
     [f"{P}:4: unknown status 'nope'; did you mean 'open'? expected one of: unresolved (or open), "
      "fixed, proposed, wontfix"]),
    ("bom", {P: b"\xef\xbb\xbf" + (FM + "[[nope.py:3]]\n").encode()},
     [f"{P}:6: unknown file 'nope.py' in '[[nope.py:3]]'; it is not among the files listed in "
      "pr.yml (nearest by name: src/widgets/core.py, src/gears/util.py, src/widgets/util.py)"]),
    ("duplicate-pr", {"content/acme/widgets/12b/pr.yml": GOOD_R,
                      "content/acme/widgets/12b/x.md": FM},
     ["content/acme/widgets/12b/pr.yml:1: acme/widgets#12 belongs in the folder "
      "'acme/widgets/12', found 'acme/widgets/12b'"]),
]


def apply(project: Project, files: dict[str, object]) -> None:
    for relative, content in files.items():
        path = project.root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        if content == "<delete>":
            path.unlink()
        elif content == "<dir>":
            if path.exists():
                path.unlink()
            path.mkdir()
        elif content == "<dangling>":
            path.symlink_to(project.root / "no-such-target.md")
        elif content == "<loop>":
            path.symlink_to(path)
        elif content == "<outside>":
            (project.root / "secret.md").write_text(FM)
            path.symlink_to(project.root / "secret.md")
        elif isinstance(content, bytes):
            path.write_bytes(content)
        else:
            assert isinstance(content, str)
            path.write_text(content, encoding="utf-8", newline="")


@pytest.mark.parametrize(("files", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_bad_input(project: Project, cli: CLI, files: dict[str, object],
                   expected: list[str]) -> None:
    assert_refused(project, cli, files, expected)


def assert_refused(project: Project, cli: CLI, files: dict[str, object],
                   expected: list[str]) -> None:
    """After a good build, `files` make the next build fail with exactly `expected`
    (`{root}` is the project folder), no traceback, and the old site untouched."""
    project.write(M, GOOD_M)
    project.write(R, GOOD_R)
    assert cli("build", "--no-search").code == 0
    before = project.snapshot_site()
    apply(project, files)
    result = cli("build", "--no-search")
    assert result.code == 1
    assert "Traceback" not in result.err
    messages = [line for line in result.err.splitlines()
                if not line.startswith(("warning: ", "Build failed: "))]
    root = os.path.realpath(project.root)
    assert messages == [m.replace("{root}", root) for m in expected]
    assert project.snapshot_site() == before


def test_the_corpus_is_large_enough() -> None:
    assert len(CASES) >= 50


def test_every_problem_of_a_build_in_one_run(project: Project, cli: CLI) -> None:
    project.write(R, GOOD_R.replace("state: open", "state: shipped"))
    project.write("content/acme/gears/3/pr.yml", GOOD_R.replace("widgets", "gears")
                  .replace("number: 12", "number: 3"))
    project.write("content/acme/gears/3/a.md", FM + "[[nope.py:1]]\n" + FLOW.format("step a: x"))
    project.write("content/acme/gears/3/b.md", FM.replace("open", "later"))
    project.write(P, "no front matter\n")
    result = cli("build", "--no-search")
    assert result.code == 1
    assert len(result.err.splitlines()) == 6  # five problems in four files, and the summary
