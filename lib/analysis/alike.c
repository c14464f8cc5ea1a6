/* SPDX-License-Identifier: BSD-3-Clause */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <rte_common.h>

#include "alike.h"
#include "measure/metrics.h"

/*
 * "ports" and "vlan" are read by roles_of() and tagged_of(): what matters
 * is how many ports transmit and receive, and whether frames carry a tag
 * (not which ID: a tag's cost is the same for every ID).
 */
const struct wr_alike_key wr_alike_keys[] = {
	{ "mix", "frame size mix (--mix, IMIX)", "config.mix", NULL,
		"none (one frame size)" },
	{ "l3", "IP version (--ipv6)", "config.l3", NULL, "ipv4" },
	{ "rate", "rate (--rate)", "config.rate", NULL, "unpaced" },
	{ "pattern", "traffic pattern of the streams (--pattern)", "tx_streams",
		"pattern", "-" },
	{ "stamp", "test header fields stamped (--stamp)", "config.stamp", NULL,
		"full" },
	{ "streams", "sending streams (--stream, --txq)", "tx_streams",
		"stream_id", "-" },
	{ "flows", "flows (--flows, field ranges)", "config.flows", NULL, "1" },
	{ "ranges", "field ranges (--src-ip A-B, --dport N-M, ...)",
		"config.ranges", NULL, "none" },
	{ "vlan", "VLAN tagging (--vlan)", "config.vlan", NULL, "untagged" },
	{ "ports", "TX and RX port counts (--tx-ports, --rx-ports)",
		"ports", NULL, "-" },
	{ "latency", "latency measurement (--latency)", "config.latency", NULL,
		"auto" },
	/* A connection run's (histpoints.c keeps them out of other set-ups). */
	{ "conn_app", "a connection run's application (HTTP, bulk)",
		"connections.app", NULL, "-" },
	{ "conn_asked", "what a connection run asked (rate, connections, "
		"requests per connection, sizes)", "connections.asked", NULL, "-" },
	/* An RFC 2889 run's (histpoints.c keeps them out of other set-ups). */
	{ "mesh_pattern", "RFC 2889 mesh pattern (--mesh-pattern)",
		"rfc2889.pattern", NULL, "-" },
	{ "rfc2889_ports", "RFC 2889 ports of the run (their indices)",
		"rfc2889.ports", "index", "-" },
	{ "conn_load", "a conn-load run's concurrencies (--conn-concurrency)",
		"conn_load.cells", "concurrency", "-" },
};
const unsigned int wr_nb_alike_keys = RTE_DIM(wr_alike_keys);

int
wr_alike_allow(const char *name, unsigned int *mask, struct wr_error *err)
{
	char list[256];
	size_t used = 0;
	unsigned int i;

	for (i = 0; i < wr_nb_alike_keys; i++)
		if (strcmp(wr_alike_keys[i].name, name) == 0) {
			*mask |= 1u << i;
			return 0;
		}
	list[0] = '\0';
	for (i = 0; i < wr_nb_alike_keys && used < sizeof(list); i++)
		used += (size_t)snprintf(list + used, sizeof(list) - used, "%s%s",
			i ? ", " : "", wr_alike_keys[i].name);
	return wr_err_usage(err, -EINVAL, "--allow-diff %s: not a key; accepted: %s",
		name, list);
}

/* How many ports of a "ports" array transmit and receive, in words. */
static int
roles_of(const json_t *ports, const char *name, json_t **out,
		struct wr_error *err)
{
	unsigned int tx = 0, rx = 0;
	const json_t *role;
	size_t i;

	if (!json_is_array(ports))
		return wr_err_usage(err, -EINVAL, "%s: field 'ports' is missing or "
			"not an array", name);
	for (i = 0; i < json_array_size(ports); i++) {
		role = json_object_get(json_array_get(ports, i), "role");
		if (!json_is_string(role))
			return wr_err_usage(err, -EINVAL, "%s: field 'ports[%zu].role' is "
				"missing or not a string", name, i);
		tx += strstr(json_string_value(role), "tx") != NULL;
		rx += strstr(json_string_value(role), "rx") != NULL;
	}
	*out = json_sprintf("transmits on %u and receives on %u port(s)", tx, rx);
	return 0;
}

/*
 * v, or the value absent stands for when v is missing or null: a new
 * reference. absent is read as JSON where it is one ("1" flow is the
 * integer a result writes), else as a string ("ipv4").
 */
static json_t *
or_absent(const json_t *v, const char *absent)
{
	json_t *a;

	if (v != NULL && !json_is_null(v))
		return json_deep_copy(v);
	a = json_loads(absent, JSON_DECODE_ANY, NULL);
	return a != NULL ? a : json_string(absent);
}

/* The fields of an array's elements, as an array: a new reference. */
static json_t *
fields_of(const json_t *a, const char *field, const char *absent)
{
	json_t *out;
	size_t i;

	if (!json_is_array(a))
		return json_string(absent);
	out = json_array();
	for (i = 0; out != NULL && i < json_array_size(a); i++)
		if (json_array_append_new(out, or_absent(json_object_get(
				json_array_get(a, i), field), "-")) != 0) {
			json_decref(out);
			out = NULL;
		}
	return out;
}

/*
 * Where doc keeps key's value. A test mode's streams are its trials': the
 * first finished trial's, else (a file written during its first trial)
 * the trial in progress's at the top, which only such a file has.
 */
static const json_t *
get_key(const json_t *doc, const struct wr_alike_key *key)
{
	const json_t *first = NULL;

	if (strcmp(key->path, "tx_streams") == 0 && json_object_get(doc, "mode") != NULL)
		first = wr_metrics_get(doc, "trials[0].tx_streams");
	return first != NULL ? first : wr_metrics_get(doc, key->path);
}

/*
 * Key k of doc (named name) as the value two results are compared on, into
 * *out (a new reference): what the key means, not how it is written (an
 * absent key is its default, a VLAN ID only whether frames are tagged).
 */
static int
value_of(const json_t *doc, const char *name, unsigned int k, json_t **out,
		struct wr_error *err)
{
	const struct wr_alike_key *key = &wr_alike_keys[k];
	const json_t *v = get_key(doc, key);

	*out = NULL;
	if (strcmp(key->name, "ports") == 0) {
		if (roles_of(v, name, out, err) != 0)
			return -EINVAL;
	} else if (strcmp(key->name, "vlan") == 0 && json_is_integer(v)) {
		*out = json_string(json_integer_value(v) ? "VLAN-tagged" : "untagged");
	} else if (key->field != NULL) {
		*out = fields_of(v, key->field, key->absent);
	} else {
		*out = or_absent(v, key->absent);
	}
	if (*out == NULL)
		return wr_err_env(err, -ENOMEM, "%s: no memory to read '%s'", name,
			key->path);
	return 0;
}

int
wr_alike_value(const json_t *doc, const char *name, unsigned int k, json_t **out,
		struct wr_error *err)
{
	return value_of(doc, name, k, out, err);
}

/* A value in words: a string as it is, anything else as JSON. */
static void
text_of(const json_t *v, char *buf)
{
	char *s;

	if (json_is_string(v)) {
		snprintf(buf, WR_ALIKE_TEXT_LEN, "%s", json_string_value(v));
		return;
	}
	s = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);
	snprintf(buf, WR_ALIKE_TEXT_LEN, "%s", s != NULL ? s : "?");
	free(s);
}

/*
 * An array of fields in words, "[constant, burst:8/1ms]"; one that does
 * not fit ends in "...]". Only for the message: the values are compared.
 */
static void
list_text_of(const json_t *a, char *buf)
{
	char one[WR_ALIKE_TEXT_LEN];
	size_t used, i;

	used = (size_t)snprintf(buf, WR_ALIKE_TEXT_LEN, "[");
	for (i = 0; i < json_array_size(a) && used < WR_ALIKE_TEXT_LEN; i++) {
		text_of(json_array_get(a, i), one);
		used += (size_t)snprintf(buf + used, WR_ALIKE_TEXT_LEN - used, "%s%s",
			i ? ", " : "", one);
	}
	if (used + 1 < WR_ALIKE_TEXT_LEN)
		snprintf(buf + used, WR_ALIKE_TEXT_LEN - used, "]");
	else
		memcpy(buf + WR_ALIKE_TEXT_LEN - 5, "...]", 5);
}

/* Value v of key k in words, into buf. */
static void
words_of(unsigned int k, const json_t *v, char *buf)
{
	if (wr_alike_keys[k].field != NULL && json_is_array(v))
		list_text_of(v, buf);
	else
		text_of(v, buf);
}

int
wr_alike_diffs(const json_t *base, const char *base_name, const json_t *cur,
		const char *cur_name, struct wr_alike_diff *diffs, unsigned int max,
		struct wr_error *err)
{
	unsigned int k, n = 0;
	json_t *b = NULL, *c = NULL;
	int rc = 0;

	for (k = 0; k < wr_nb_alike_keys && n < max && rc == 0; k++) {
		struct wr_alike_diff *d = &diffs[n];

		rc = value_of(base, base_name, k, &b, err);
		if (rc == 0)
			rc = value_of(cur, cur_name, k, &c, err);
		if (rc == 0 && !json_equal(b, c)) {
			words_of(k, b, d->base);
			words_of(k, c, d->cur);
			d->key = k;
			n++;
		}
		json_decref(b);
		json_decref(c);
		b = c = NULL;
	}
	return rc != 0 ? rc : (int)n;
}
