#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""-Ddpdk_rpath=auto's decision (buildtools/loader_path.py) on made-up
ldconfig caches and folders: a folder the cache lists librte_eal from
(also through a symbolic link) or a system folder is found; one that only
holds other libraries, or a name that merely starts like librte_eal, is
not. gen_docs.py, given a program that cannot load its libraries (exit
127), stops with what to do, not a traceback. The program of this build
starts without LD_LIBRARY_PATH.

usage: rpath_check.py SOURCE_ROOT WIRERATE
Fails (exit 1) listing each miss."""
import importlib.util
import os
import subprocess
import sys
import tempfile

misses = []


def check(cond, what):
    if not cond:
        misses.append(what)
        print('MISS: ' + what)


def load(root):
    spec = importlib.util.spec_from_file_location(
        'loader_path', os.path.join(root, 'buildtools', 'loader_path.py'))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def check_decision(lp, d):
    real, link, other = (os.path.join(d, n) for n in ('real', 'link', 'other'))
    os.mkdir(real)
    os.mkdir(other)
    os.symlink(real, link)
    text = ('1234 libs found in cache `/etc/ld.so.cache\'\n'
            '\tlibrte_eal.so.23 (libc6,x86-64) => %s/librte_eal.so.23\n'
            '\tlibrte_eal_x.so.1 (libc6,x86-64) => %s/librte_eal_x.so.1\n'
            '\tlibrte_net_ring.so.23 (libc6,x86-64) => %s/librte_net_ring.so.23\n'
            % (link, other, other))
    dirs = lp.cached_dirs(text, 'librte_eal')
    check(dirs == {os.path.realpath(real)}, 'cache folders of librte_eal: %s' % dirs)
    check(lp.loader_finds(real, dirs), 'a folder the cache lists is found')
    check(lp.loader_finds(link, dirs), 'a link to a folder the cache lists is found')
    check(not lp.loader_finds(other, dirs), 'a folder with other libraries only is missing')
    check(not lp.loader_finds(os.path.join(d, 'prefix', 'lib'), dirs),
          'a private prefix is missing')
    check(lp.loader_finds('/usr/lib', set()), 'a system folder is found without a cache')
    check(not lp.loader_finds(real, set(), system_dirs=()),
          'no cache, no system folder: missing')
    check(lp.loader_finds(link, set(), system_dirs=(real,)),
          'a system folder through a link is found')


def check_gen_docs(root, d):
    """A wirerate that cannot load its libraries: a clear stop."""
    fake = os.path.join(d, 'wirerate')
    with open(fake, 'w') as f:
        f.write('#!/bin/sh\necho "wirerate: error while loading shared '
                'libraries: librte_eal.so.99: cannot open shared object '
                'file" >&2\nexit 127\n')
    os.chmod(fake, 0o755)
    optab = os.path.join(d, 'optab.json')
    with open(optab, 'w') as f:
        f.write('{"sections": [], "options": [], "subcommands": []}\n')
    p = subprocess.run([sys.executable, os.path.join(root, 'buildtools', 'gen_docs.py'),
                        '--optab', optab, '--wirerate', fake, '--man',
                        os.path.join(d, 'wirerate.1')], capture_output=True, text=True)
    check(p.returncode != 0, 'gen_docs.py with a program that exits 127 fails')
    check('Traceback' not in p.stderr, 'gen_docs.py: no traceback: %r' % p.stderr[-300:])
    check('-Ddpdk_rpath=true' in p.stderr and 'librte_eal.so.99' in p.stderr,
          'gen_docs.py says what to do and why: %r' % p.stderr[-300:])


def main():
    root, wirerate = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    lp = load(root)
    with tempfile.TemporaryDirectory() as d:
        check_decision(lp, d)
    with tempfile.TemporaryDirectory() as d:
        check_gen_docs(root, d)
    env = {k: v for k, v in os.environ.items() if k != 'LD_LIBRARY_PATH'}
    p = subprocess.run([wirerate, '--version'], capture_output=True, text=True, env=env)
    check(p.returncode == 0, 'this build starts without LD_LIBRARY_PATH: %r' % p.stderr[-300:])
    print('%d misses' % len(misses))
    sys.exit(1 if misses else 0)


if __name__ == '__main__':
    main()
