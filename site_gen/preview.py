"""The preview's builds: warm, kept in memory, written in place.

`site-gen serve` builds once, then again on every save. A `Preview` keeps the site in
memory between those builds (see reuse.py): a save re-reads only the files that changed,
renders again only the pages made from them and the pages that show them, and writes
only the files whose bytes changed, straight into the served folder. A change outside
docs_dir (mkdocs.yml, a template, fetched code) starts again from the settings.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from .build import RenderedSite, render_site
from .cache import PageCache, build_fingerprint, cache_path
from .config import Config
from .content import stamp_of
from .output import Kept, Outputs, apply_changes, check_names
from .reuse import Reuse, Warm


@dataclass
class Preview:
    """Builds the site into `folder`, each build starting from what the last one made."""

    load: Callable[[], Config]  # the settings, read again when they may have changed
    folder: Path
    jobs: int = 1
    config: Config | None = None
    warm: Warm | None = None
    shown: Outputs = field(default_factory=dict)  # what `folder` holds now
    stamps: dict[str, tuple[int, ...]] = field(default_factory=dict)  # of copied files
    written: int = 0  # files written or removed by the last build

    def build(self, changed: Iterable[Path] | None = None) -> RenderedSite:
        """Build again after `changed` paths changed (None: anything may have).

        Raises BuildFailed as a build does; the folder then keeps the last good site."""
        if self.config is None or self.warm is None or changed is None or \
                not all(_inside(p, self.config.docs_dir) for p in changed):
            self.config = self.load()
            self.warm = Warm(build_fingerprint(self.config))
        self.warm.discovery.note_changes(self.config.docs_dir, changed)
        cache = PageCache(cache_path(self.config))
        try:
            site = render_site(self.config, jobs=self.jobs,
                               reuse=Reuse(self.warm.fingerprint, cache, self.warm))
        finally:
            cache.close()
        self.warm.forget_outputs(site.outputs)
        self._write(site.outputs)
        return site

    def _write(self, outputs: Outputs) -> None:
        writes: dict[str, str | Path | Kept] = {}
        for name, content in outputs.items():
            old = self.shown.get(name)
            if isinstance(content, Path):
                stamp = stamp_of(content)
                if old == content and self.stamps.get(name) == stamp:
                    continue
                self.stamps[name] = stamp
            elif old is content or old == content:
                continue
            writes[name] = content
        check_names(writes)  # what was written before was checked then
        deletes = sorted(name for name in self.shown if name not in outputs)
        self.folder.mkdir(parents=True, exist_ok=True)
        apply_changes(self.folder, writes, deletes)
        for name in deletes:
            self.stamps.pop(name, None)
        self.shown = dict(outputs)
        self.written = len(writes) + len(deletes)


def _inside(path: Path, folder: Path) -> bool:
    return Path(os.path.abspath(path)).is_relative_to(folder)
