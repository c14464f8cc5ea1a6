/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alike.h"
#include "histpoints.h"
#include "results/conn_read.h"
#include "results/kinds.h"

/* A string at path of doc, or "-": the value a set-up key has when absent. */
static json_t *
text_at(const json_t *doc, const char *path)
{
	const json_t *v = wr_metrics_get(doc, path);

	return json_is_string(v) ? json_string(json_string_value(v)) : json_string("-");
}

/* "driver device" of each port, in port order: which NICs moved the frames. */
static json_t *
nics_of(const json_t *doc)
{
	const json_t *ports = json_object_get(doc, "ports"), *p;
	json_t *out = json_array();
	char buf[160];
	size_t i;

	json_array_foreach(ports, i, p) {
		snprintf(buf, sizeof(buf), "%s %s",
			json_string_value(json_object_get(p, "driver")) ?: "-",
			json_string_value(json_object_get(p, "device")) ?: "-");
		if (out != NULL)
			json_array_append_new(out, json_string(buf));
	}
	return out;
}

int
wr_hist_setup(const json_t *doc, const char *name, json_t **setup,
		struct wr_error *err)
{
	const struct wr_kind *kind = wr_kind_of(doc, err);
	json_t *o = json_object(), *v;
	unsigned int k;

	*setup = NULL;
	if (kind == NULL) {
		json_decref(o);
		return wr_err_prefix(err, "%s: ", name);
	}
	if (o == NULL)
		return wr_err_env(err, -ENOMEM, "%s: no memory", name);
	/* A run and a repeated run are alike (compare takes them together). */
	json_object_set_new(o, "kind", json_string(kind->points == wr_kinds[0].points ?
		"run" : kind->name));
	for (k = 0; k < wr_nb_alike_keys; k++) {
		/* the set-up of a frame run stays as it was before connections */
		if (strncmp(wr_alike_keys[k].path, "connections.", 12) == 0 &&
				!wr_results_conn_is(doc))
			continue;
		if (strncmp(wr_alike_keys[k].path, "rfc2889.", 8) == 0 &&
				json_object_get(doc, "rfc2889") == NULL)
			continue;
		if (wr_alike_value(doc, name, k, &v, err) != 0) {
			json_decref(o);
			return -EINVAL;
		}
		json_object_set_new(o, wr_alike_keys[k].name, v);
	}
	json_object_set_new(o, "dpdk_version", text_at(doc, "env.dpdk_version"));
	json_object_set_new(o, "cpu_model", text_at(doc, "env.cpu_model"));
	json_object_set_new(o, "nics", nics_of(doc));
	*setup = o;
	return 0;
}

int
wr_hist_fact_add(struct wr_hist_facts *out, const char *point, const char *metric,
		int lower_better, double value, struct wr_error *err)
{
	struct wr_hist_fact *f;

	if (out->nb == WR_HIST_MAX_FACTS)
		return wr_err_usage(err, -EINVAL, "more than %u figures in one result",
			WR_HIST_MAX_FACTS);
	f = &out->f[out->nb++];
	snprintf(f->point, sizeof(f->point), "%s", point);
	snprintf(f->metric, sizeof(f->metric), "%s", metric);
	f->lower_better = lower_better;
	f->value = value;
	f->n = 1;
	return 0;
}

/* Cycles per frame of each lcore of a run (cpu.lcores[].tsc_per_pkt). */
static int
lcore_facts(const json_t *doc, const char *point, struct wr_hist_facts *out,
		struct wr_error *err)
{
	const json_t *lc = wr_metrics_get(doc, "cpu.lcores"), *l;
	char metric[WR_HIST_NAME_LEN];
	size_t i;

	json_array_foreach(lc, i, l) {
		const json_t *id = json_object_get(l, "lcore");
		const json_t *v = json_object_get(l, "tsc_per_pkt");

		if (!json_is_integer(id) || !json_is_number(v))
			continue;       /* an lcore that moved no frame has no cost */
		snprintf(metric, sizeof(metric), "cycles_per_pkt.lcore%" JSON_INTEGER_FORMAT,
			json_integer_value(id));
		if (wr_hist_fact_add(out, point, metric, 1, json_number_value(v), err) != 0)
			return -EINVAL;
	}
	return 0;
}

int
wr_hist_facts(const json_t *doc, struct wr_hist_facts *out, struct wr_error *err)
{
	struct wr_points *pts = malloc(sizeof(*pts));
	const unsigned int *ids;
	unsigned int i, j, nb;
	char name[WR_HIST_NAME_LEN];
	int rc = -EINVAL;

	out->nb = 0;
	if (pts == NULL)
		return wr_err_env(err, -ENOMEM, "no memory");
	if (wr_kind_points(doc, pts, err) != 0)
		goto out;
	out->kind = pts->kind->name;
	for (i = 0; i < pts->nb; i++) {
		const struct wr_point *p = &pts->p[i];

		wr_point_name(pts->kind, p, name, sizeof(name));
		nb = wr_point_judged(pts->kind, p, &ids);
		for (j = 0; j < nb; j++) {
			const struct wr_metric_def *d = &wr_metric_defs[ids[j]];

			if (!p->m.have[ids[j]])
				continue;
			if (wr_hist_fact_add(out, name, d->name, d->dir ==
					WR_METRIC_LOWER_BETTER, p->m.v[ids[j]], err) != 0)
				goto out;
			out->f[out->nb - 1].n = p->n;
		}
		if (i == 0 && pts->kind->points == wr_kinds[0].points &&
				lcore_facts(doc, name, out, err) != 0)
			goto out;
	}
	rc = 0;
out:
	free(pts);
	return rc;
}
