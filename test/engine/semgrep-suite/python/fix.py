import subprocess

import yaml


def load(stream, args):
    # ruleid: python-yaml-load-to-safe-load
    config = yaml.load(stream)
    # ruleid: python-drop-shell-true
    version = subprocess.check_output(["git", "describe"], cwd=args.repo, shell=True)
    # ok: python-yaml-load-to-safe-load
    other = yaml.safe_load(stream)
    return config, version, other
