"""What every page of a build depends on besides its own content."""

from __future__ import annotations

import hashlib
from pathlib import Path

from . import __version__
from .config import PACKAGE_TEMPLATES, Config

PACKAGE_DIR = Path(__file__).resolve().parent


def build_fingerprint(config: Config) -> str:
    """A digest of site_gen's version and code, the templates, and the settings."""
    # Paths relative to the project, so the same project in another folder builds the
    # same bytes (the digest is recorded in the site's marker file).
    settings = repr(config).replace(str(config.root), "<project>")
    digest = hashlib.sha256(f"site_gen {__version__}\n{settings}\n".encode())
    for folder, pattern in ((PACKAGE_DIR, "**/*.py"), (PACKAGE_TEMPLATES, "**/*"),
                            (config.custom_dir, "**/*")):
        for path in sorted(folder.glob(pattern)):
            if path.is_file() and "__pycache__" not in path.parts:
                digest.update(f"{path.relative_to(folder)}\n".encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()
