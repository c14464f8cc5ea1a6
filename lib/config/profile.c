/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Two passes over a profile. The first (lint) reads the lines itself, only
 * to know where each section and key stands and to reject what rte_cfgfile
 * would skip or truncate without a word: lines without '=', keys before a
 * section, over-long keys and values. The second lets rte_cfgfile parse the
 * file and applies its entries, in file order, through the command-line
 * option handlers (opts.c), so a value means the same in both places.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <rte_cfgfile.h>
#include <rte_common.h>

#include "base/suggest.h"
#include "optab.h"
#include "opts.h"
#include "profile.h"

#define COMMENT_CHAR '#'
#define MAX_ENTRIES 512u
/* rte_cfgfile reads lines into a buffer of this size, '\n' included. */
#define MAX_LINE (CFG_NAME_LEN + CFG_VALUE_LEN + 4 - 1)

/*
 * A section is its enum wr_optab_profsec (names in optab.c): it accepts the
 * options whose profile section (optab.c) it is; [streams] takes any key,
 * a stream's name, its value the definition.
 */
#define SEC_FIRST (WR_PROF_NONE + 1)
#define SEC_COUNT (WR_PROF_COUNT - SEC_FIRST)

/* Keys that may appear more than once in their section. */
static const char *const repeatable[] = { "map", "stream", "port-ip", NULL };

/* Where each section and entry of the file stands, from the lint pass. */
struct lint_entry {
	unsigned int line;
	char key[CFG_NAME_LEN];
};

struct ctx {
	const char *path;
	struct wr_config *cfg;
	struct wr_error *err;
	unsigned int nb_sections;
	unsigned int section_line[SEC_COUNT];
	enum wr_optab_profsec order[SEC_COUNT];  /* file order */
	unsigned int nb_entries;
	struct lint_entry e[MAX_ENTRIES];
};

static int __rte_format_printf(3, 4)
perr(struct ctx *x, unsigned int line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	wr_err_vset(x->err, WR_ERR_USAGE, -EINVAL, fmt, ap);
	va_end(ap);
	if (line > 0)
		return wr_err_prefix(x->err, "%s:%u: ", x->path, line);
	return wr_err_prefix(x->err, "%s: ", x->path);
}

static bool
in_list(const char *const *list, const char *s)
{
	for (; *list != NULL; list++)
		if (strcmp(*list, s) == 0)
			return true;
	return false;
}

/* The section called name, or WR_PROF_NONE. */
static enum wr_optab_profsec
find_section(const char *name)
{
	unsigned int s;

	for (s = SEC_FIRST; s < WR_PROF_COUNT; s++)
		if (strcmp(wr_optab_profsec_name(s), name) == 0)
			return (enum wr_optab_profsec)s;
	return WR_PROF_NONE;
}

/* Whether section sp accepts option key. */
static bool
accepts(enum wr_optab_profsec sp, const char *key)
{
	const struct wr_optdesc *o = wr_optab_find(key);

	return o != NULL && sp != WR_PROF_STREAMS && o->profile == sp;
}

const char *
wr_profile_section_of(const char *key)
{
	const struct wr_optdesc *o = wr_optab_find(key);

	if (o == NULL || o->profile == WR_PROF_NONE)
		return NULL;
	return wr_optab_profsec_name(o->profile);
}

/* Write "a, b, c", the keys of sp, into buf. */
static const char *
section_keys(enum wr_optab_profsec sp, char *buf, size_t len)
{
	size_t i, n = 0;

	buf[0] = '\0';
	for (i = 0; i < wr_optab_len && n < len; i++)
		if (wr_optab[i].profile == sp)
			n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? ", " : "",
				wr_optab[i].name);
	return buf;
}

static const char *
section_names(char *buf, size_t len)
{
	size_t i, n = 0;

	buf[0] = '\0';
	for (i = SEC_FIRST; i < WR_PROF_COUNT && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? ", " : "",
			wr_optab_profsec_name(i));
	return buf;
}

/* The known key closest to key (any section), or NULL if none is close. */
static const char *
closest_key(const char *key)
{
	struct wr_suggest sg;
	size_t i;

	wr_suggest_init(&sg, key, strlen(key));
	for (i = 0; i < wr_optab_len; i++)
		if (wr_optab[i].profile != WR_PROF_NONE)
			wr_suggest_try(&sg, wr_optab[i].name);
	return sg.best;
}

static char *
trim(char *s)
{
	char *end;

	while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n')
		s++;
	end = s + strlen(s);
	while (end > s && (end[-1] == ' ' || end[-1] == '\t' ||
			end[-1] == '\r' || end[-1] == '\n'))
		*--end = '\0';
	return s;
}

/* Cut a comment as rte_cfgfile does: the first '#' unless escaped. */
static void
cut_comment(char *s)
{
	char *pos = strchr(s, COMMENT_CHAR);

	if (pos != NULL && (pos == s || pos[-1] != '\\'))
		*pos = '\0';
}

static int
lint_section(struct ctx *x, char *s, unsigned int line)
{
	enum wr_optab_profsec sp;
	char *end = strchr(s, ']'), *name, names[128];
	unsigned int i;

	if (end == NULL || *trim(end + 1) != '\0')
		return perr(x, line, "%s: a section line is [name] and nothing "
			"else", s);
	*end = '\0';
	name = trim(s + 1);
	sp = find_section(name);
	if (sp == WR_PROF_NONE)
		return perr(x, line, "[%s]: unknown section; accepted: %s", name,
			section_names(names, sizeof(names)));
	for (i = 0; i < x->nb_sections; i++)
		if (x->order[i] == sp)
			return perr(x, line, "[%s]: section given twice (first on "
				"line %u); put all its keys in one", name,
				x->section_line[i]);
	x->order[x->nb_sections] = sp;
	x->section_line[x->nb_sections++] = line;
	return 0;
}

static int
lint_entry(struct ctx *x, char *s, unsigned int line)
{
	char *eq = strchr(s, '='), *key, *value;

	if (eq == NULL)
		return perr(x, line, "'%s': expected [section], key = value or a "
			"'#' comment", s);
	*eq = '\0';
	key = trim(s);
	value = trim(eq + 1);
	if (*key == '\0')
		return perr(x, line, "= %s: no key before '='", value);
	if (x->nb_sections == 0)
		return perr(x, line, "%s: key before any [section]", key);
	if (strlen(key) >= CFG_NAME_LEN || strlen(value) >= CFG_VALUE_LEN)
		return perr(x, line, "%.40s...: key longer than %u or value longer "
			"than %u characters", key, CFG_NAME_LEN - 1, CFG_VALUE_LEN - 1);
	if (*value == '\0')
		return perr(x, line, "[%s] %s: empty value", wr_optab_profsec_name(
			x->order[x->nb_sections - 1]), key);
	if (x->nb_entries == MAX_ENTRIES)
		return perr(x, line, "more than %u keys", MAX_ENTRIES);
	x->e[x->nb_entries].line = line;
	strcpy(x->e[x->nb_entries].key, key);
	x->nb_entries++;
	return 0;
}

static int
lint_line(struct ctx *x, char *buf, size_t len, unsigned int line)
{
	char *s;

	if (len > 0 && buf[len - 1] == '\n')
		len--;
	if (len >= MAX_LINE)
		return perr(x, line, "line longer than %u characters", MAX_LINE - 1);
	if (strlen(buf) < len)
		return perr(x, line, "NUL byte in the line");
	cut_comment(buf);
	s = trim(buf);
	if (*s == '\0')
		return 0;
	if (*s == '[')
		return lint_section(x, s, line);
	return lint_entry(x, s, line);
}

static int
lint_file(struct ctx *x)
{
	FILE *f = fopen(x->path, "r");
	char *buf = NULL;
	size_t cap = 0;
	ssize_t len;
	unsigned int line = 0;
	int rc = 0;

	if (f == NULL) {
		rc = -errno;
		if (rc == -ENOMEM)
			return wr_err_env(x->err, rc, "%s: no memory to read the "
				"profile", x->path);
		/* A profile named on the command line that is not there: usage. */
		return wr_err_usage(x->err, -ENOENT, "%s: cannot read the profile: "
			"%s", x->path, strerror(-rc));
	}
	while (rc == 0 && (len = getline(&buf, &cap, f)) >= 0)
		rc = lint_line(x, buf, (size_t)len, ++line);
	free(buf);
	fclose(f);
	if (rc == 0 && x->nb_sections == 0)
		rc = perr(x, 0, "no [section] in the file: not a wirerate profile");
	return rc;
}

static int
parse_flag(struct ctx *x, const struct lint_entry *le, const char *sec,
		const char *value, bool *on)
{
	static const char *const yes[] = { "yes", "true", "on", "1", NULL };
	static const char *const no[] = { "no", "false", "off", "0", NULL };
	unsigned int i;

	for (i = 0; yes[i] != NULL; i++) {
		if (strcasecmp(value, yes[i]) == 0) {
			*on = true;
			return 0;
		}
		if (strcasecmp(value, no[i]) == 0) {
			*on = false;
			return 0;
		}
	}
	return perr(x, le->line, "[%s] %s = %s: expected yes or no (also true/"
		"false, on/off, 1/0)", sec, le->key, value);
}

/* Reword an option handler's "--key value: why" for the profile. */
static int
reword(struct ctx *x, const struct lint_entry *le, const char *sec,
		const char *value, const char *why)
{
	char pre[3][CFG_NAME_LEN + CFG_VALUE_LEN + 8], msg[512];
	const char *rest = why;
	enum wr_err_class cls;
	unsigned int i;
	int errnum;

	/* Most say "--key value: why", some "--key: why" or "--key part: why". */
	snprintf(pre[0], sizeof(pre[0]), "--%s %s: ", le->key, value);
	snprintf(pre[1], sizeof(pre[1]), "--%s: ", le->key);
	snprintf(pre[2], sizeof(pre[2]), "--%s ", le->key);
	for (i = 0; i < RTE_DIM(pre); i++) {
		if (strncmp(why, pre[i], strlen(pre[i])) == 0) {
			rest = why + strlen(pre[i]);
			break;
		}
	}
	/* why lives in x->err, which perr overwrites: keep its class. */
	snprintf(msg, sizeof(msg), "%s", rest);
	cls = x->err->cls;
	errnum = x->err->errnum;
	perr(x, le->line, "[%s] %s = %s: %s", sec, le->key, value, msg);
	x->err->cls = cls;
	x->err->errnum = errnum;
	return errnum != 0 ? -errnum : -EINVAL;
}

static int
unknown_key(struct ctx *x, const struct lint_entry *le,
		enum wr_optab_profsec sp, const char *value)
{
	const char *home = wr_profile_section_of(le->key), *near;
	char keys[512];

	if (home != NULL)
		return perr(x, le->line, "[%s] %s = %s: %s belongs in section "
			"[%s]", wr_optab_profsec_name(sp), le->key, value, le->key, home);
	near = closest_key(le->key);
	section_keys(sp, keys, sizeof(keys));
	if (near != NULL)
		return perr(x, le->line, "[%s] %s = %s: unknown key; did you mean "
			"'%s' (in [%s])? accepted in [%s]: %s", wr_optab_profsec_name(sp), le->key,
			value, near, wr_profile_section_of(near), wr_optab_profsec_name(sp), keys);
	return perr(x, le->line, "[%s] %s = %s: unknown key; accepted in [%s]: "
		"%s", wr_optab_profsec_name(sp), le->key, value, wr_optab_profsec_name(sp), keys);
}

/* First line before entry i of a key, or 0: duplicates are errors. */
static unsigned int
seen_before(const struct ctx *x, unsigned int i)
{
	unsigned int j;

	for (j = 0; j < i; j++)
		if (strcmp(x->e[j].key, x->e[i].key) == 0)
			return x->e[j].line;
	return 0;
}

static int
apply_option(struct ctx *x, unsigned int i, enum wr_optab_profsec sp,
		const char *value)
{
	const struct lint_entry *le = &x->e[i];
	unsigned int first;
	bool on = false;
	int rc;

	if (!accepts(sp, le->key))
		return unknown_key(x, le, sp, value);
	first = seen_before(x, i);
	if (first != 0 && !in_list(repeatable, le->key))
		return perr(x, le->line, "[%s] %s = %s: %s already set on line %u; "
			"give it once", wr_optab_profsec_name(sp), le->key, value, le->key, first);
	if (wr_optab_find(le->key)->has_arg == no_argument) {
		rc = parse_flag(x, le, wr_optab_profsec_name(sp), value, &on);
		if (rc != 0 || !on)
			return rc;
		value = NULL;
	}
	/* The profile's own maps add up; a --map later replaces them all. */
	x->cfg->maps_from_profile = false;
	rc = wr_opts_set(le->key, value, x->cfg, x->err);
	if (rc == -ENOENT)
		return perr(x, le->line, "[%s] %s: this build has no --%s option",
			wr_optab_profsec_name(sp), le->key, le->key);
	if (rc != 0)
		return reword(x, le, wr_optab_profsec_name(sp), value ? value : "yes", x->err->msg);
	x->cfg->maps_from_profile = x->cfg->nb_maps > 0;
	return 0;
}

/* [streams] NAME = DEF: --stream "name=NAME;DEF". */
static int
apply_stream(struct ctx *x, const struct lint_entry *le, const char *value)
{
	char def[WR_STREAM_TEXT_LEN + CFG_NAME_LEN];
	int rc;

	snprintf(def, sizeof(def), "name=%s;%s", le->key, value);
	rc = wr_opts_set("stream", def, x->cfg, x->err);
	if (rc != 0)
		return reword(x, le, "streams", value, x->err->msg);
	return 0;
}

static int
apply_entry(struct ctx *x, unsigned int i, enum wr_optab_profsec sp,
		const char *value)
{
	unsigned int first;

	if (sp != WR_PROF_STREAMS)
		return apply_option(x, i, sp, value);
	first = seen_before(x, i);
	if (first != 0)
		return perr(x, x->e[i].line, "[streams] %s: a key named %s is already "
			"set on line %u; give each stream its own name", x->e[i].key,
			x->e[i].key, first);
	return apply_stream(x, &x->e[i], value);
}

/* Apply section index s of f; *next is the index of its first entry. */
static int
apply_section(struct ctx *x, struct rte_cfgfile *f, int s, unsigned int *next)
{
	struct rte_cfgfile_entry *ent;
	char name[CFG_NAME_LEN];
	int n, i, rc = 0;

	n = rte_cfgfile_section_num_entries_by_index(f, name, s);
	if (n < 0 || *next + (unsigned int)n > x->nb_entries ||
			strcmp(name, wr_optab_profsec_name(x->order[s])) != 0)
		return perr(x, 0, "rte_cfgfile read the file differently from "
			"its lines (section %d)", s);
	ent = calloc(n ? n : 1, sizeof(*ent));
	if (ent == NULL)
		return -ENOMEM;
	rte_cfgfile_section_entries_by_index(f, s, name, ent, n);
	for (i = 0; i < n && rc == 0; i++, (*next)++) {
		if (strcmp(ent[i].name, x->e[*next].key) != 0)
			rc = perr(x, x->e[*next].line, "rte_cfgfile read key '%s' "
				"here, not '%s'", ent[i].name, x->e[*next].key);
		else
			rc = apply_entry(x, *next, x->order[s], ent[i].value);
	}
	free(ent);
	return rc;
}

static int
apply_file(struct ctx *x)
{
	struct rte_cfgfile_parameters params = { .comment_character = COMMENT_CHAR };
	struct rte_cfgfile *f;
	unsigned int next = 0;
	int s, rc = 0;

	f = rte_cfgfile_load_with_params(x->path, 0, &params);
	if (f == NULL)
		return perr(x, 0, "rte_cfgfile could not parse the file");
	if (rte_cfgfile_num_sections(f, NULL, 0) != (int)x->nb_sections)
		rc = perr(x, 0, "rte_cfgfile found %d sections, the lines %u",
			rte_cfgfile_num_sections(f, NULL, 0), x->nb_sections);
	for (s = 0; rc == 0 && s < (int)x->nb_sections; s++)
		rc = apply_section(x, f, s, &next);
	rte_cfgfile_close(f);
	if (rc == -ENOMEM)
		wr_err_env(x->err, rc, "%s: no memory to read the profile", x->path);
	return rc;
}

int
wr_profile_load(const char *path, struct wr_config *cfg, struct wr_error *err)
{
	struct ctx *x;
	int rc;

	if (strlen(path) >= sizeof(cfg->profile_path))
		return wr_err_usage(err, -EINVAL, "--profile: path longer than %zu characters",
			sizeof(cfg->profile_path) - 1);
	x = calloc(1, sizeof(*x));
	if (x == NULL)
		return wr_err_env(err, -ENOMEM, "%s: no memory to read the profile", path);
	x->path = path;
	x->cfg = cfg;
	x->err = err;
	rc = lint_file(x);
	if (rc == 0)
		rc = apply_file(x);
	if (rc == 0)
		strcpy(cfg->profile_path, path);
	free(x);
	return rc;
}
