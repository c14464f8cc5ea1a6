#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Every option of the table (optdump's JSON) is in `wirerate --help`, in
the man page, completes in bash (with its words or file names), and is
accepted in its profile section by the real program; the range its help
states is the one the parser enforces; a value that is not one of its
words is refused with every word listed; every subcommand is in the man
page, completes, and answers --help and --version; neither the man page
nor the completion names the path the program was built at; README's
`man -l` names the man page the build writes.

usage: optab_docs.py OPTAB.json WIRERATE MAN_PAGE COMPLETION PROFILES_MD
Fails (exit 1) listing each miss."""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

misses = []


def miss(what):
    misses.append(what)
    print('MISS: ' + what)


def complete(completion, words, cwd):
    """COMPREPLY of bash completion for the command line words (the last
    one being completed), sourced from the generated file."""
    script = ('source "$1"; shift; COMP_WORDS=("$@"); '
              'COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _wirerate; '
              'printf "%s\\n" "${COMPREPLY[@]}"')
    p = subprocess.run(['bash', '-c', script, 'bash', completion] + words,
                       capture_output=True, text=True, cwd=cwd, check=True)
    return [w for w in p.stdout.split('\n') if w]


def help_blocks(text):
    """{option name: its lines of --help}."""
    blocks, name = {}, None
    for line in text.splitlines():
        m = re.match(r'^  --([a-z0-9-]+)', line)
        if m:
            name = m.group(1)
            blocks[name] = ''
        elif not line.startswith('   '):
            name = None
        if name:
            blocks[name] += line + '\n'
    return blocks


def check_help(table, wirerate):
    text = subprocess.run([wirerate, '--help'], capture_output=True,
                          text=True, check=True).stdout
    blocks = help_blocks(text)
    for o in table['options']:
        if o['name'] not in blocks:
            miss('--%s not in wirerate --help' % o['name'])
            continue
        for v in o['values']:
            if not re.search(r'\b%s' % re.escape(v.rstrip(':')), blocks[o['name']]):
                miss('--%s: its word %s not in its --help' % (o['name'], v))


def build_paths(wirerate, man):
    """The folders of this build that must never show in an installed
    document: the program's, the build directory's, the man page's and
    the source tree's, as written and as roff writes them ('-' as '\\-')."""
    here = os.path.dirname(os.path.abspath(__file__))
    dirs = {os.path.dirname(wirerate), os.path.dirname(os.path.dirname(wirerate)),
            os.path.dirname(man), os.path.dirname(here)}
    return sorted({form + '/' for d in dirs if len(d) > 1
                   for form in (d, d.replace('-', '\\-'))})


def check_no_build_path(wirerate, man, completion):
    """The man page and completion name the program `wirerate`, never the
    path it was built at (a usage line printed with argv[0])."""
    for doc in (man, completion):
        text = open(doc).read()
        for path in build_paths(wirerate, man):
            if path in text:
                line = next(l for l in text.splitlines() if path in l)
                miss('%s names the build path %s: %r' % (
                    os.path.basename(doc), path, line))
                break


def check_man(table, man):
    text = open(man).read()
    for o in table['options']:
        if not re.search(r'^\\fB\\-\\-%s\\fR' % re.escape(o['name'].replace('-', '\\-')),
                         text, re.M):
            miss('--%s not in the man page' % o['name'])
    for s in table['subcommands']:
        if '.SS wirerate %s\n' % s['name'] not in text:
            miss('subcommand %s has no section in the man page' % s['name'])


def check_readme_man(man):
    """README's way to read the man page before installing, `man -l
    build/PATH`, names the file this build writes (PATH below the build
    folder, `build` being README's), and `man -l` shows it where man is
    installed."""
    here = os.path.dirname(os.path.abspath(__file__))
    text = open(os.path.join(os.path.dirname(here), 'README.md')).read()
    m = re.search(r'`man -l ([^`/]+)/([^`]+)`', text)
    want = os.path.relpath(man, os.path.dirname(os.path.dirname(man)))
    if not m or m.group(1) != 'build' or m.group(2) != want:
        miss('README names %s, not build/%s, to read the man page before '
             'installing' % (m.group(0) if m else 'no `man -l`', want))
    if shutil.which('man'):
        p = subprocess.run(['man', '-l', man], capture_output=True, text=True,
                           env=dict(os.environ, MANPAGER='cat', MANWIDTH='80'))
        if p.returncode != 0 or not re.search(r'^NAME\n +wirerate +- ', p.stdout, re.M):
            miss('man -l %s: exit %d, no NAME section: %r' % (
                man, p.returncode, (p.stderr or p.stdout)[:200]))


def run_like(wirerate, name):
    """The subcommand takes a run's options after -- (its usage says so)."""
    p = subprocess.run([wirerate, name, '--help'], capture_output=True, text=True)
    return ' -- ' in p.stdout.split('\n')[0]


def check_completion(table, completion, wirerate):
    with tempfile.TemporaryDirectory() as d:
        open(os.path.join(d, 'result-1.json'), 'w').close()
        got = complete(completion, ['wirerate', '-l', '0,1', '--', '--'], d)
        for o in table['options']:
            if '--' + o['name'] not in got:
                miss('--%s does not complete after --' % o['name'])
        for o in table['options']:
            if o['values']:
                got = complete(completion, ['wirerate', '--', '--' + o['name'], ''], d)
                if sorted(got) != sorted(o['values']):
                    miss('--%s completes %s, not its words %s' %
                         (o['name'], got, o['values']))
            elif o.get('arg') == 'FILE':
                got = complete(completion, ['wirerate', '--', '--' + o['name'], 'res'], d)
                if got != ['result-1.json']:
                    miss('--%s completes %s, not the file' % (o['name'], got))
        got = complete(completion, ['wirerate', 'check', '-l', '0,1', '--', '--mod'], d)
        if got != ['--mode']:
            miss('wirerate check ... -- --mod completes %s, not --mode' % got)
        got = complete(completion, ['wirerate', ''], d)
        for s in table['subcommands']:
            if s['name'] not in got:
                miss('subcommand %s does not complete' % s['name'])
            # A run-like subcommand ("-- [wirerate options]" in its usage:
            # check, serve) completes as a run does, not files.
            if not run_like(wirerate, s['name']):
                got_f = complete(completion, ['wirerate', s['name'], 'res'], d)
                if got_f != ['result-1.json']:
                    miss('wirerate %s does not complete files: %s' % (s['name'], got_f))


def check_profile(table, wirerate):
    """Each option in its section reaches the option's own parser: a value
    it refuses is refused for its value, never as an unknown key; a flag
    set to yes is accepted."""
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, 'p.ini')
        for o in table['options']:
            if not o['profile']:
                if o['name'] not in ('help', 'version', 'profile'):
                    miss('--%s has no profile section' % o['name'])
                continue
            value = 'yes' if not o.get('arg') else '@bad@'
            with open(path, 'w') as f:
                f.write('[%s]\n%s = %s\n' % (o['profile'], o['name'], value))
            p = subprocess.run([wirerate, 'check', '--', '--profile', path],
                               capture_output=True, text=True)
            err = p.stderr
            if ('unknown key' in err or 'belongs in section' in err or
                    'unknown section' in err or 'no --' in err):
                miss('profile [%s] %s: %s' % (o['profile'], o['name'], err.strip()))
            elif not o.get('arg') and p.returncode != 0 and '[%s]' % o['profile'] in err:
                miss('profile [%s] %s = yes refused: %s' % (o['profile'], o['name'], err.strip()))
            elif p.returncode not in (0, 2):
                miss('profile [%s] %s: exit %d (%s)' %
                     (o['profile'], o['name'], p.returncode, err.strip()))


def check_profiles_doc(table, doc):
    """docs/profiles.md's table lists each section's keys, as the table."""
    text = open(doc).read()
    for sec in {o['profile'] for o in table['options'] if o['profile']}:
        m = re.search(r'^\| `\[%s\]` \| (.*) \|$' % sec, text, re.M)
        got = re.findall(r'`([a-z0-9-]+)`', m.group(1)) if m else []
        want = [o['name'] for o in table['options'] if o['profile'] == sec]
        if got != want:
            miss('docs/profiles.md [%s] lists %s, the table %s' % (sec, got, want))


SCALAR_ARGS = ("N", "BYTES", "ID", "PCT", "RATIO")


def neighbours(lo, hi):
    """Values just outside [lo, hi] (text as in --help)."""
    if "." in lo + hi:
        return ["%g" % (float(lo) / 2 if float(lo) > 0 else -0.1),
                "%g" % (float(hi) * 1.01)]
    return [str(int(lo) - 1), str(int(hi) + 1)]


def check_ranges(table, wirerate):
    """A range A..B in a scalar option's help is the parser's: A and B are
    not refused for their value, the values just outside are (exit 2,
    naming the option), through `wirerate check`."""
    nb = 0
    for o in table['options']:
        if o.get('arg') not in SCALAR_ARGS:
            continue
        m = re.search(r'(?<![\w.])(\d+(?:\.\d+)?)\.\.(\d+(?:\.\d+)?)(?![\w.])',
                      o['help'].replace('\n', ' '))
        if not m:
            continue
        nb += 1
        for v in m.groups():
            p = subprocess.run([wirerate, 'check', '--', '--' + o['name'], v],
                               capture_output=True, text=True)
            if '--%s %s:' % (o['name'], v) in p.stderr:
                miss('--%s %s, in its --help range, refused: %s' % (o['name'], v,
                                                                   p.stderr.strip()))
        for v in neighbours(*m.groups()):
            p = subprocess.run([wirerate, 'check', '--', '--' + o['name'], v],
                               capture_output=True, text=True)
            if p.returncode != 2 or '--' + o['name'] not in p.stderr:
                miss('--%s %s, outside its --help range %s..%s, not refused (exit %d)' % (
                    o['name'], v, m.group(1), m.group(2), p.returncode))
    if nb < 10:
        miss('only %d options state a range in --help' % nb)


def check_words(table, wirerate):
    """A value that is none of an option's words is refused (exit 2,
    naming the option) with a message that lists every word of the
    table: a list written by hand falls behind the table."""
    nb = 0
    for o in table['options']:
        if not o['values']:
            continue
        nb += 1
        p = subprocess.run([wirerate, 'check', '--', '--' + o['name'], 'zzbad'],
                           capture_output=True, text=True)
        said = p.stderr.split('zzbad', 1)[-1]
        left = [v for v in o['values']
                if not re.search(r'\b%s\b' % re.escape(v.rstrip(':')), said)]
        if p.returncode != 2 or '--' + o['name'] not in p.stderr or left:
            miss('--%s zzbad: exit %d, the message leaves out %s of its words: %s' % (
                o['name'], p.returncode, left, p.stderr.strip()))
    if nb < 10:
        miss('only %d options take words' % nb)


def check_subcommands(table, wirerate):
    version = subprocess.run([wirerate, '--version'], capture_output=True,
                             text=True, check=True).stdout
    for s in table['subcommands']:
        p = subprocess.run([wirerate, s['name'], '--version'], capture_output=True,
                           text=True)
        if p.returncode != 0 or p.stdout != version:
            miss('wirerate %s --version: exit %d, %r' % (s['name'], p.returncode, p.stdout))


def main():
    optab, wirerate, man, completion, doc = [os.path.abspath(a) for a in sys.argv[1:6]]
    table = json.load(open(optab))
    if len(table['options']) < 60 or len(table['subcommands']) < 4:
        miss('the table is short: %d options, %d subcommands' %
             (len(table['options']), len(table['subcommands'])))
    check_help(table, wirerate)
    check_man(table, man)
    check_readme_man(man)
    check_no_build_path(wirerate, man, completion)
    check_completion(table, completion, wirerate)
    check_profile(table, wirerate)
    check_subcommands(table, wirerate)
    check_profiles_doc(table, doc)
    check_ranges(table, wirerate)
    check_words(table, wirerate)
    print('%d options, %d subcommands, %d misses' %
          (len(table['options']), len(table['subcommands']), len(misses)))
    sys.exit(1 if misses else 0)


if __name__ == '__main__':
    main()
