/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * A connection mode's far end (--mode conn-rate or conn-load with
 * --peer, connpeer.h): before each trial the far end's server books are
 * read, after its drain read again once they hold still; their
 * difference is the far end's books over the trial, judged against the
 * client's as a plain run's are at its end (app_conn_peer_judge). The
 * books come from the far end's status call (its live "conn" figures,
 * published each interval: the server runs with --interval 100ms).
 * --mode conn-capacity reads them once, as its settle ends, with the
 * capacity open there (app_conn_peer_held).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/exitcode.h"
#include "connpeer.h"

/* How often the far end is asked while its books settle (ms). */
#define POLL_MS 50u
/* Books that hold still this long (ms, three of its intervals) after
 * the client's drain are the trial's: nothing is in flight there. */
#define SETTLE_MS 300u

/* The far end's counts judged, as the status call names them. */
static const char *const book_keys[] = {
	"accepted", "closed", "failed", "open", "reqs_served",
	"l7_rx_bytes", "l7_tx_bytes",
};
#define NB_KEYS (sizeof(book_keys) / sizeof(book_keys[0]))

static uint64_t
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

/* Whether a and b hold the same counts. */
static bool
same_books(const json_t *a, const json_t *b)
{
	size_t i;

	for (i = 0; i < NB_KEYS; i++)
		if (app_conn_peer_count(a, book_keys[i]) !=
				app_conn_peer_count(b, book_keys[i]))
			return false;
	return true;
}

/*
 * One status of the far end: its server's books (a new reference) when
 * they are whole and open connections there number open, else *books
 * NULL. Returns 0, or a negative errno with err (lost, or its run has
 * ended).
 */
static int
far_read(struct app_conn_peer *cp, int64_t open, json_t **books,
		struct wr_error *err)
{
	const char *state;
	json_t *st = NULL, *b;

	*books = NULL;
	if (app_peer_request(&cp->conn, "status", NULL, &st, NULL, err) != 0)
		return -EPIPE;
	state = json_string_value(json_object_get(st, "state"));
	if (state == NULL || strcmp(state, "running") != 0) {
		json_decref(st);
		return wr_err_fail(err, -EIO, "--peer %s: the far end's server "
			"run ended during the mode (its stderr says why)",
			cp->cfg->peer);
	}
	b = json_object_get(json_object_get(st, "live"), "conn");
	if (json_is_object(b) && json_is_true(json_object_get(b, "whole")) &&
			app_conn_peer_count(b, "open") == open)
		*books = json_incref(b);
	json_decref(st);
	return 0;
}

/*
 * The far end's books once they hold still (SETTLE_MS, open connections
 * open), a new reference; NULL with err when they do not within
 * --peer-timeout.
 */
static json_t *
far_settled(struct app_conn_peer *cp, int64_t open, struct wr_error *err)
{
	uint64_t end = now_ms() + cp->cfg->peer_timeout_ms, since = 0;
	json_t *last = NULL, *b;

	for (;;) {
		if (far_read(cp, open, &b, err) != 0)
			break;
		if (b != NULL && last != NULL && same_books(last, b)) {
			json_decref(b);
			if (now_ms() - since >= SETTLE_MS)
				return last;
		} else if (b != NULL) {
			json_decref(last);
			last = b;
			since = now_ms();
		}
		if (now_ms() >= end) {
			wr_err_fail(err, -ETIMEDOUT, "--peer %s: the far end's books "
				"did not settle with %" PRId64 " connections open there "
				"within --peer-timeout (%" PRIu64 " ms)", cp->cfg->peer,
				open, cp->cfg->peer_timeout_ms);
			break;
		}
		usleep(POLL_MS * 1000u);
	}
	json_decref(last);
	return NULL;
}

static int
hook_begin(void *arg, struct wr_error *err)
{
	struct app_conn_peer *cp = arg;

	if (cp->base != NULL)
		return 0;       /* the last trial's end */
	cp->base = far_settled(cp, 0, err);
	return cp->base != NULL ? 0 : -EPIPE;
}

/* after - before of the far end's counts, as app_conn_peer_judge reads
 * them (its failures as "failed_total"); NULL: no memory. */
static json_t *
far_delta(const json_t *before, const json_t *after)
{
	json_t *o = json_object();
	size_t i;

	for (i = 0; i < NB_KEYS && o != NULL; i++)
		json_object_set_new(o, strcmp(book_keys[i], "failed") == 0 ?
			"failed_total" : book_keys[i], json_integer(
			app_conn_peer_count(after, book_keys[i]) -
			(strcmp(book_keys[i], "open") == 0 ? 0 :
			app_conn_peer_count(before, book_keys[i]))));
	return o;
}

/* The trial's far-end line, labelled as the far end's. */
static void
far_show(const struct app_conn_peer *cp, const json_t *fb, bool judged,
		bool ok)
{
	printf("  far end (%s): accepted %" PRId64 ", closed %" PRId64
		", failed %" PRId64 "; requests served %" PRId64 "; bytes "
		"delivered %" PRId64 ", sent %" PRId64 "; %s\n", cp->cfg->peer,
		app_conn_peer_count(fb, "accepted"),
		app_conn_peer_count(fb, "closed"),
		app_conn_peer_count(fb, "failed_total"),
		app_conn_peer_count(fb, "reqs_served"),
		app_conn_peer_count(fb, "l7_rx_bytes"),
		app_conn_peer_count(fb, "l7_tx_bytes"),
		!judged ? "not judged (failures or open connections here)" :
		ok ? "both ends' books agree" : "the books DISAGREE");
}

static int
hook_judge(const struct wr_conn_books *d, json_t *rec, void *arg,
		struct wr_error *err)
{
	struct app_conn_peer *cp = arg;
	json_t *after = far_settled(cp, 0, err), *far, *fb;
	bool ok;

	if (after == NULL)
		return -EPIPE;
	fb = far_delta(cp->base, after);
	json_decref(cp->base);
	cp->base = after;
	far = json_pack("{s:s, s:o}", "peer", cp->cfg->peer, "books", fb);
	if (far == NULL)
		return wr_err_env(err, -ENOMEM, "no memory for the far end's books");
	ok = app_conn_peer_judge(far, fb, d);
	json_object_set_new(far, "ok", json_boolean(ok));
	json_object_set_new(rec, "far", far);
	cp->nb_trials++;
	cp->nb_bad += !ok;
	if (cp->show)
		far_show(cp, fb, json_is_true(json_object_get(far, "judged")), ok);
	return ok ? 0 : 1;
}

const struct wr_mode_conn_far *
app_conn_peer_mode_hooks(struct app_conn_peer *cp, bool show)
{
	cp->hooks = (struct wr_mode_conn_far){ hook_begin, hook_judge, cp };
	cp->show = show;
	return &cp->hooks;
}

int
app_conn_peer_mode_end(struct app_conn_peer *cp, json_t *doc, int code)
{
	uint32_t nb = cp->nb_trials, bad = cp->nb_bad;
	const char *peer = cp->cfg->peer;
	bool show = cp->show, ok = false;
	json_t *far;

	json_decref(cp->base);
	cp->base = NULL;
	/* Without our books: the far end's exit code only. */
	far = app_conn_peer_close(cp, NULL, &ok);
	if (far == NULL)
		return APP_EXIT_FAILED;
	ok = json_integer_value(json_object_get(far, "exit_code")) == 0 &&
		json_object_get(far, "error") == NULL;
	json_object_set_new(far, "trials_judged", json_integer(nb));
	json_object_set_new(far, "trials_disagree", json_integer(bad));
	json_object_set_new(far, "ok", json_boolean(ok && bad == 0));
	if (doc != NULL)
		json_object_set(doc, "conn_far", far);
	json_decref(far);
	if (show)
		printf("far end (%s): %" PRIu32 " trials judged against its "
			"books, %" PRIu32 " disagree; its server run %s\n", peer, nb,
			bad, ok ? "ended well" : "FAILED");
	if (bad != 0)
		fprintf(stderr, "wirerate: error: --peer %s: the two ends' books "
			"disagree in %" PRIu32 " of %" PRIu32 " trials (trials[].far)\n",
			peer, bad, nb);
	else if (!ok)
		fprintf(stderr, "wirerate: error: --peer %s: the far end's server "
			"run failed (far.exit_code)\n", peer);
	return ok && bad == 0 ? code : APP_EXIT_FAILED;
}

json_t *
app_conn_peer_held(struct app_conn_peer *cp, uint64_t held,
		uint64_t completed, struct wr_error *err)
{
	json_t *b = far_settled(cp, (int64_t)held, err), *o;
	int64_t acc, open;
	bool ok;

	if (b == NULL)
		return NULL;
	acc = app_conn_peer_count(b, "accepted");
	open = app_conn_peer_count(b, "open");
	json_decref(b);
	ok = open == (int64_t)held && acc == (int64_t)completed;
	o = json_pack("{s:s, s:I, s:I, s:b}", "peer", cp->cfg->peer,
		"accepted", (json_int_t)acc, "open", (json_int_t)open, "ok", ok);
	if (o == NULL)
		wr_err_env(err, -ENOMEM, "no memory for the far end's books");
	else if (!cp->cfg->quiet)
		printf("  far end (%s): holds %" PRId64 " open of %" PRId64
			" accepted; %s\n", cp->cfg->peer, open, acc, ok ?
			"both ends agree" : "the books DISAGREE");
	return o;
}
