/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * GET /api/events: the live stream of the page, as server-sent events
 * (the HTML Living Standard, "Server-sent events"). Each connection has
 * its own thread (web.c); it asks the server for status (and leases,
 * when the server has them) every SSE_TICK_MS and sends an event only
 * when something changed: the run, its state, an interval taken, a
 * lease. So the page sees every interval once, as the run's stats core
 * published it, without asking; an event every SSE_BEAT_MS at least
 * tells a closed page from a quiet run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/rpc.h"
#include "web_int.h"

/* How often the stream looks for news, in milliseconds. */
#define SSE_TICK_MS 50
/* The longest silence of a stream, in milliseconds. */
#define SSE_BEAT_MS 5000

struct sse {
	struct app_web *w;
	char *ev;          /* the event being sent: ev[off, len) */
	size_t off;
	size_t len;
	char *key;         /* what the last event said, as compared */
	uint64_t sent_ms;  /* when it was sent */
};

static uint64_t
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* method's result through the server's hook, or JSON null. */
static json_t *
ask(struct sse *s, const char *method)
{
	json_t *params = json_object(), *out = NULL;
	char msg[256];

	if (params != NULL && s->w->ops.call(s->w->ops.ctx, method, params, &out,
			msg, sizeof(msg)) != 0)
		out = NULL;
	json_decref(params);
	return out != NULL ? out : json_null();
}

/* What decides whether an event is news: all but the clocks. */
static char *
key_of(json_t *doc)
{
	json_t *k = json_deep_copy(doc), *st = json_object_get(k, "status");
	char *s;

	json_object_del(st, "heap_bytes");
	json_object_del(st, "run_elapsed_ms");
	json_object_del(json_object_get(st, "live"), "elapsed_ms");
	s = json_dumps(k, JSON_COMPACT | JSON_SORT_KEYS);
	json_decref(k);
	return s;
}

/* Build the next event when there is news (or a beat is due). 1 or 0. */
static int
next_event(struct sse *s)
{
	json_t *doc = json_pack("{s:o, s:o}", "status", ask(s, "status"),
		"leases", ask(s, "leases"));
	char *key = doc != NULL ? key_of(doc) : NULL, *data;
	uint64_t t = now_ms();
	int n = 0;

	if (key != NULL && (s->key == NULL || strcmp(key, s->key) != 0 ||
			t - s->sent_ms >= SSE_BEAT_MS)) {
		data = json_dumps(doc, JSON_COMPACT);
		free(s->ev);
		s->ev = NULL;
		if (data != NULL && asprintf(&s->ev, "data: %s\n\n", data) > 0) {
			s->off = 0;
			s->len = strlen(s->ev);
			s->sent_ms = t;
			free(s->key);
			s->key = key;
			key = NULL;
			n = 1;
		}
		free(data);
	}
	free(key);
	json_decref(doc);
	return n;
}

/* libmicrohttpd asks for more of the stream: wait for news here. */
static ssize_t
sse_read(void *cls, uint64_t pos, char *buf, size_t max)
{
	struct sse *s = cls;
	size_t n;

	(void)pos;
	while (s->off == s->len) {
		if (s->w->stopping)
			return MHD_CONTENT_READER_END_OF_STREAM;
		if (next_event(s) != 0)
			break;
		usleep(SSE_TICK_MS * 1000);
	}
	n = s->len - s->off < max ? s->len - s->off : max;
	memcpy(buf, s->ev + s->off, n);
	s->off += n;
	return (ssize_t)n;
}

static void
sse_free(void *cls)
{
	struct sse *s = cls;

	free(s->ev);
	free(s->key);
	free(s);
}

enum MHD_Result
web_sse_open(struct app_web *w, struct MHD_Connection *conn)
{
	struct MHD_Response *resp;
	struct sse *s;
	enum MHD_Result rc;

	if (!w->open && !web_authed(w, conn, true))
		return web_reply_error(conn, MHD_HTTP_UNAUTHORIZED, WR_RPC_DENIED,
			"/api/events: this server's pages need the token "
			"(its cookie, or --web-open)");
	s = calloc(1, sizeof(*s));
	if (s == NULL)
		return MHD_NO;
	s->w = w;
	resp = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 4096,
		sse_read, s, sse_free);
	if (resp == NULL) {
		sse_free(s);
		return MHD_NO;
	}
	MHD_add_response_header(resp, "Content-Type", "text/event-stream");
	MHD_add_response_header(resp, "Cache-Control", "no-store");
	rc = MHD_queue_response(conn, MHD_HTTP_OK, resp);
	MHD_destroy_response(resp);
	return rc;
}
