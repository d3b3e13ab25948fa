"""A synthetic site of review explainers shaped like the model page, for benchmarks and tests."""

from __future__ import annotations

import subprocess
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


# A stand-in for the model PR's head, as far as its page needs one: the lines the page
# quotes (its proposals' context and removed lines, its flow's source) as it quotes them,
# at their numbers; the other lines it cites, and the definitions around them, are written
# for this benchmark (not the PR's code), and every other line is blank.
MODEL_CODE: dict[str, dict[int, str]] = {
    "nemo_rl/utils/checkpoint.py": {
        57: "def _finalize_telemetry(",
        58: "    carrier: Mapping[str, str], step: Optional[int], *, async_save: bool",
        59: ") -> Iterator[None]:",
        76: "    with contextlib.ExitStack() as stack:",
        77: "        stack.enter_context(checkpoint_finalize_span(step, async_save=async_save))",
        78: "        yield",
        480: "def begin_finalization(tmp, carrier, step, wait_fn=None):",
        484: "    def _finalize():",
        487: "        for _ in range(1):",
        488: "            try:",
        489: "                with _finalize_telemetry(carrier, step, async_save=wait_fn is not None):",
        490: "                    if wait_fn is not None:",
        491: "                        wait_fn()",
        492: "            finally:",
        493: "                pass",
        494: "    return _finalize",
    },
    "nemo_rl/telemetry/instrumentation.py": {
        101: 'RL_CHECKPOINT_ASYNC_ATTR = "rl.checkpoint.async_save"',
        970: "def checkpoint_finalize_span(",
        971: "    iteration: Optional[int],",
        972: "    *,",
        973: "    async_save: bool,",
        974: "    tracer: Optional[Tracer] = None,",
        975: "    attributes: Mapping[str, Any] = {},",
        976: ") -> Iterator[None]:",
        1008: "    attrs: dict[str, Any] = {RL_CHECKPOINT_ASYNC_ATTR: async_save, **attributes}",
        1009: "    if iteration is not None:",
        1010: "        attrs['step'] = iteration",
        1011: "    yield attrs",
    },
    "nemo_rl/algorithms/grpo.py": {
        4125: "            begin_finalization(tmp_step, carrier, step, wait_fn=policy.finalize_async_save)",
    },
    "tests/unit/telemetry/test_checkpoint_spans.py": {
        196: "    begin_finalization(tmp, carrier, 12)()",
    },
    "docs/observability/span-groups.md": {
        130: "The async_save tag tells a slow async write apart from a quick sync rename.",
    },
}


def model_code_files() -> dict[str, str]:
    """Each file of MODEL_CODE whole: its cited lines where the page cites them, blank lines
    between them (valid anywhere in Python)."""
    return {path: "".join(f"{cited.get(n, '')}\n" for n in range(1, max(cited) + 4))
            for path, cited in MODEL_CODE.items()}


def write_checked_model_copies(project: Path, prs: int, code: Path) -> list[str]:
    """Like write_model_copies, but checked: a git repository at `code` holds MODEL_CODE;
    each copy pins a commit of its own there, returned in order, and its pull ref points at
    it (the drift notice is looked for and finds nothing). Each copy's files end with a
    line of their own: what a build learns of code is kept by commit, and a text is parsed
    once per process, so no copy's is another's (as the files of different PRs differ)."""
    project.mkdir(parents=True, exist_ok=True)
    write_model_copies(project, prs)
    env = {"GIT_AUTHOR_NAME": "b", "GIT_AUTHOR_EMAIL": "b@b", "GIT_COMMITTER_NAME": "b",
           "GIT_COMMITTER_EMAIL": "b@b", "GIT_AUTHOR_DATE": "2026-01-01T00:00:00Z",
           "GIT_COMMITTER_DATE": "2026-01-01T00:00:00Z", "PATH": "/usr/bin:/bin"}

    def git(*args: str, given: str | None = None) -> str:
        return subprocess.run(["git", "-C", str(code), *args], check=True, capture_output=True,
                              text=True, env=env, input=given).stdout.strip()

    code.mkdir(parents=True)
    git("init", "-q", "-b", "main")
    files = model_code_files()
    stream = []  # every copy's commit in one `git fast-import`, its pull ref made with it
    for n in range(1, prs + 1):
        message = f"the head of copy {n}"
        stream.append(f"commit refs/pull/{n}/head\nmark :{n}\n"
                      f"committer b <b@b> 1767225600 +0000\ndata {len(message)}\n{message}\n")
        for path, text in files.items():
            data = f"{text}# copy {n}\n"  # `data` counts bytes, not characters
            stream.append(f"M 100644 inline {path}\ndata {len(data.encode())}\n{data}\n")
    marks = code / ".git" / "copies.marks"
    git("fast-import", "--quiet", f"--export-marks={marks}", given="".join(stream))
    found = dict(line.split() for line in marks.read_text(encoding="utf-8").splitlines())
    heads = [found[f":{n}"] for n in range(1, prs + 1)]
    for n, head in enumerate(heads, 1):
        facts = project / "content/NVIDIA-NeMo/RL" / str(n) / "pr.yml"
        text = facts.read_text(encoding="utf-8")
        text = text.replace("head: 2f6b955", f"head: {head}").replace(
            "code_unavailable: a copy of the model PR for benchmarks\n", "")
        facts.write_text(text, encoding="utf-8")
    return heads
