"""Packages for setuptools: every package under adjudicator/, plus the shipped data folders.

pyproject.toml holds all the metadata; only this list needs code, so that a game added as
a package (adjudicator/games/<id>/) is installed without anyone editing a list.
"""

from setuptools import find_packages, setup

setup(packages=find_packages(include=["adjudicator", "adjudicator.*"]) + ["adjudicator.schemas", "adjudicator.templates"])
