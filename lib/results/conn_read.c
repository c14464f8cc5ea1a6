/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <string.h>

#include "conn_read.h"
#include "conncap_read.h"

bool
wr_results_conn_is(const json_t *doc)
{
	return json_is_object(json_object_get(doc, "connections"));
}

/* A string of o at key, one of the accepted pair, else err. */
static int
word(const json_t *o, const char *key, const char *a, const char *b,
		const char **v, struct wr_error *err)
{
	const json_t *x = json_object_get(o, key);

	*v = json_string_value(x);
	if (*v == NULL || (strcmp(*v, a) != 0 && strcmp(*v, b) != 0))
		return wr_err_usage(err, -EINVAL, "field 'connections.%s' is %s "
			"(expected \"%s\" or \"%s\")", key, x == NULL ? "missing" :
			"not one of", a, b);
	return 0;
}

/*
 * The number at path of c (connections) times scale into metric id; a
 * null is a figure the run could not have (no time, nothing attempted),
 * left absent; anything else is bad input.
 */
static int
figure(const json_t *c, const char *path, double scale, unsigned int id,
		struct wr_point *p, struct wr_error *err)
{
	const json_t *x = wr_metrics_get(c, path);

	if (json_is_null(x))
		return 0;
	if (!json_is_number(x))
		return wr_err_usage(err, -EINVAL, "field 'connections.%s' is %s",
			path, x == NULL ? "missing" : "not a number");
	p->m.have[id] = true;
	p->m.v[id] = json_number_value(x) * scale;
	return 0;
}

const char *
wr_results_conn_role(const json_t *doc, struct wr_error *err)
{
	const char *role;

	if (word(json_object_get(doc, "connections"), "role", "client", "server",
			&role, err) != 0)
		return NULL;
	return role;
}

const struct wr_kind *
wr_results_conn_kind(const json_t *doc, struct wr_error *err)
{
	const char *role;
	unsigned int i;

	/* A capacity run's, also as written during its fill (no
	 * "connections" yet). */
	for (i = 0; wr_conncap_is(doc) && i < wr_nb_kinds; i++)
		if (wr_kinds[i].points == wr_conncap_points)
			return &wr_kinds[i];
	role = wr_results_conn_role(doc, err);

	for (i = 0; role != NULL && i < wr_nb_kinds; i++)
		if (wr_kinds[i].points == (strcmp(role, "client") == 0 ?
				wr_results_conn_client_points :
				wr_results_conn_server_points))
			return &wr_kinds[i];
	return NULL;
}

/* The point of a result of role want (the kind's), its figures. */
static int
conn_points(const json_t *doc, const char *want, struct wr_points *out,
		struct wr_error *err)
{
	const json_t *c = json_object_get(doc, "connections");
	struct wr_point *p = &out->p[0];
	const char *role, *app;
	bool client = strcmp(want, "client") == 0;

	if (!json_is_object(c))
		return wr_err_usage(err, -EINVAL, "field 'connections' is missing "
			"or not an object");
	if (word(c, "role", "client", "server", &role, err) != 0 ||
			word(c, "app", "http", "bulk", &app, err) != 0)
		return -EINVAL;
	if (strcmp(role, want) != 0)
		return wr_err_usage(err, -EINVAL, "field 'connections.role' is "
			"\"%s\", not \"%s\"", role, want);
	out->nb = 1;
	p->frame_size = 0;
	if (figure(c, client ? "rates.completed_cps" : "rates.accepted_cps", 1,
			WR_METRIC_CONN_CPS, p, err) != 0 ||
			figure(c, "rates.goodput_bps", 1e-9, WR_METRIC_CONN_GOODPUT_GBPS,
			p, err) != 0)
		return -EINVAL;
	if (strcmp(app, "http") == 0 && figure(c, "rates.requests_per_s", 1,
			WR_METRIC_CONN_RPS, p, err) != 0)
		return -EINVAL;
	if (!client)
		return 0;
	if (figure(c, "failed_ratio", 100, WR_METRIC_CONN_FAIL_PCT, p, err) != 0)
		return -EINVAL;
	/* no connection established: no connect latency, nothing to judge */
	if (json_is_null(wr_metrics_get(c, "latency.connect")))
		return 0;
	return figure(c, "latency.connect.p99_us", 1, WR_METRIC_CONN_CONNECT_P99_US,
		p, err);
}

int
wr_results_conn_client_points(const json_t *doc, struct wr_points *out,
		struct wr_error *err)
{
	return conn_points(doc, "client", out, err);
}

int
wr_results_conn_server_points(const json_t *doc, struct wr_points *out,
		struct wr_error *err)
{
	return conn_points(doc, "server", out, err);
}
