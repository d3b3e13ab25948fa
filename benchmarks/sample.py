"""A synthetic site of review explainers shaped like the model page, for benchmarks and tests."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MODEL = ROOT / "content/NVIDIA-NeMo/RL/4607/async-save-tag.md"
MODEL_PR = ROOT / "content/NVIDIA-NeMo/RL/4607/pr.yml"
PAGES_PER_PR = 3
STATUSES = ("open", "fixed", "proposed", "wontfix")


def write_model_copies(project: Path, prs: int, *,
                       site_url: str = "https://bench.example.org/") -> None:
    """Write mkdocs.yml and `prs` copies of the model PR (its pr.yml and its page, as they
    are but for the PR's number), one page each: a real page, not a generated one."""
    (project / "mkdocs.yml").write_text(
        f"site_name: Bench\nsite_url: {site_url}\ndocs_dir: content\n", encoding="utf-8")
    facts = MODEL_PR.read_text(encoding="utf-8")
    page = MODEL.read_text(encoding="utf-8")
    for n in range(1, prs + 1):
        folder = project / "content/NVIDIA-NeMo/RL" / str(n)
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "pr.yml").write_text(facts.replace("number: 4607", f"number: {n}")
                                       + "code_unavailable: a copy of the model PR for benchmarks\n",
                                       encoding="utf-8")
        (folder / MODEL.name).write_text(page, encoding="utf-8")


def write_site(project: Path, pages: int, *, site_url: str = "https://bench.example.org/") -> None:
    """Write mkdocs.yml and `pages` question pages (three per PR) under `project`."""
    (project / "mkdocs.yml").write_text(
        f"site_name: Bench\nsite_url: {site_url}\ndocs_dir: content\n", encoding="utf-8")
    model = MODEL.read_text(encoding="utf-8")
    front, body = model.split("\n---\n", 1)
    facts = MODEL_PR.read_text(encoding="utf-8")
    for n in range(pages):
        pr, order = divmod(n, PAGES_PER_PR)
        folder = project / "content" / f"org{pr % 7}" / f"repo{pr % 13}" / str(pr + 1)
        if order == 0:
            folder.mkdir(parents=True, exist_ok=True)
            (folder / "pr.yml").write_text(
                facts.replace("repo: NVIDIA-NeMo/RL", f"repo: org{pr % 7}/repo{pr % 13}")
                .replace("number: 4607", f"number: {pr + 1}")
                + "code_unavailable: a copy of the model PR for benchmarks\n", encoding="utf-8")
        page_front = (front.replace("order: 1", f"order: {order + 1}")
                      .replace("status: open", f"status: {STATUSES[n % 4]}")
                      .replace("question: the async_save tag bug", f"question: question {n}")
                      .replace("updated: 2026-11-29", f"updated: 2026-{n % 12 + 1:02d}-{n % 28 + 1:02d}"))
        page_body = body.replace("## One tag", f"## Case {n}: one tag", 1)
        (folder / f"p-{n:05d}.md").write_text(f"{page_front}\n---\n{page_body}",
                                              encoding="utf-8")
