"""The pages a reader follows: every relative link in README.md,
thffi/README.md and docs/*.md leads to a file that exists (and to a heading
there, when it names one), and every path under `docs/`, `tests/`, `bench/`
or `tools/` the pages write as code (`...` or a fenced block) exists.  Paths
in plain prose are not checked: docs/compatibility.md names files of other
repositories that way."""

import glob
import os
import re
import sys

import pytest

from demo_support import ROOT

PAGES = sorted(['README.md', os.path.join('thffi', 'README.md')] +
               [os.path.relpath(p, ROOT)
                for p in glob.glob(os.path.join(ROOT, 'docs', '**', '*.md'), recursive=True)])
# [text](target) and ![alt](target); a target ends at whitespace or ')'.
LINK = re.compile(r'!?\[[^\]]*\]\(([^)\s]+)\)')
# A path from the repository root: docs/cuda.md, tests/test_add.py,
# bench/ ...; a folder may end with '/'.
NAMED_PATH = re.compile(r'(?<![\w./-])((?:docs|tests|bench|tools)/[\w./-]*[\w/])')
FENCE = re.compile(r'^```.*?^```', re.S | re.M)
CODE_SPAN = re.compile(r'`([^`\n]+)`')


def _read(page):
    with open(os.path.join(ROOT, page), encoding='utf-8') as f:
        return f.read()


def _anchors(page):
    """The anchors GitHub gives the page's headings: lower case, punctuation
    but '-' and '_' dropped, spaces as '-'."""
    text = FENCE.sub('', _read(page))
    return {re.sub(r'[^\w\- ]', '', line.lstrip('#').strip().lower()).replace(' ', '-')
            for line in text.splitlines() if line.startswith('#')}


def _links(page):
    return [target for target in LINK.findall(FENCE.sub('', _read(page)))
            if not re.match(r'[a-z]+:', target)]


def test_the_pages_are_there():
    assert 'docs/PORTING.md' in PAGES and 'thffi/README.md' in PAGES and len(PAGES) >= 6


@pytest.mark.parametrize('page', PAGES)
def test_relative_links_resolve(page):
    broken = []
    for target in _links(page):
        path, _, anchor = target.partition('#')
        resolved = os.path.normpath(os.path.join(ROOT, os.path.dirname(page), path)) \
            if path else os.path.join(ROOT, page)
        if not os.path.exists(resolved):
            broken.append('%s: no such file' % target)
        elif anchor and resolved.endswith('.md') and \
                anchor not in _anchors(os.path.relpath(resolved, ROOT)):
            broken.append('%s: no heading with that anchor' % target)
    assert not broken, '%s: %s' % (page, '; '.join(broken))


@pytest.mark.parametrize('page', PAGES)
def test_named_paths_exist(page):
    text = _read(page)
    code = FENCE.findall(text) + CODE_SPAN.findall(FENCE.sub('', text))
    missing = sorted({p for span in code for p in NAMED_PATH.findall(span)
                      if not os.path.exists(os.path.join(ROOT, p))})
    assert not missing, '%s names paths that do not exist: %s' % (page, ', '.join(missing))


def _linked_pages(page):
    """The pages `page` links, as paths from the repository root."""
    return {os.path.normpath(os.path.join(os.path.dirname(page), t.partition('#')[0]))
            for t in _links(page) if t.partition('#')[0]}


def test_every_docs_page_is_linked_from_readme():
    """README links each docs page, or a page README links does (docs/PORTING.md
    is the index of docs/porting/)."""
    linked = _linked_pages('README.md')
    linked |= {p for page in sorted(linked) if page in PAGES for p in _linked_pages(page)}
    unlinked = [p for p in PAGES if p.startswith('docs') and p not in linked]
    assert not unlinked, 'README.md, and the pages it links, link none of %s' % ', '.join(unlinked)


def test_readme_is_the_demos_page():
    assert len(_read('README.md').splitlines()) <= 150


def test_the_checker_sees_a_broken_link(tmp_path, monkeypatch):
    """The checks above find what they look for: a page with a dead link, a
    dead anchor and a missing docs/ path fails them."""
    page = tmp_path / 'docs' / 'x.md'
    page.parent.mkdir()
    page.write_text('# Title here\n[a](missing.md) [b](#title-here) [c](#nowhere) '
                    '`docs/none.md`, docs/prose.md\n```\npython tools/none.py\n```\n')
    monkeypatch.setattr(sys.modules[__name__], 'ROOT', str(tmp_path))
    with pytest.raises(AssertionError, match=r'(?m)missing\.md: no such file; '
                                             r'#nowhere: no heading with that anchor$'):
        test_relative_links_resolve('docs/x.md')
    with pytest.raises(AssertionError, match=r'(?m)exist: docs/none\.md, tools/none\.py$'):
        test_named_paths_exist('docs/x.md')
