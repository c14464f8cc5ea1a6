/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * wirerate ctl [--timeout SECONDS] [--wait SECONDS] PATH METHOD
 * [key=value...]: one
 * JSON-RPC request to a control socket (a server's or a plain run's
 * --control), its result on stdout as JSON. A value that reads as JSON
 * (2, 0.5, true, [1,2]) is sent as that, anything else as a string:
 * rate=2Mpps, port=0, pause=true. Every wait (connect, send, reply) ends
 * at --timeout; acquire --wait T waits in the server's queue up to T
 * more (wait_s). Exit 0 on a result, 1 on an error reply, no server or no
 * reply in time, 2 on bad usage.
 */
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

#include <jansson.h>

#include "common/badopt.h"
#include "common/exitcode.h"
#include "base/units.h"
#include "clock.h"
#include "ctl.h"

/* --timeout: its default and its bounds, in milliseconds. */
#define CTL_TIMEOUT_MS 10000
#define CTL_TIMEOUT_MAX_MS (24 * 3600 * 1000)

/* The command line, parsed. */
struct ctl_args {
	const char *path;
	const char *method;
	char **params;          /* key=value arguments */
	int nb_params;
	uint64_t timeout_ms;
	uint64_t wait_ms;       /* --wait: acquire's wait_s, 0 none */
};

static int
usage(FILE *f)
{
	fputs("Usage: wirerate ctl [--timeout SECONDS] [--wait SECONDS] PATH METHOD\n"
		"                    [key=value...]\n"
		"\nSend one request to the control socket PATH (wirerate serve,\n"
		"or a run with --control) and print its result as JSON. Methods:\n"
		"ports, start, status, update, stop, result, shutdown; serve's\n"
		"leases: acquire, renew, release, leases (docs/api.md). A value\n"
		"that reads as JSON is sent as such, any other as a string, e.g.:\n"
		"  wirerate ctl /run/wr.sock update rate=2Mpps port=0\n"
		"  wirerate ctl --wait 30m /run/wr.sock acquire ports=all owner=ci\n\n"
		"  --timeout SECONDS  wait at most this long for the server (connect,\n"
		"                     send, reply): 10, 2.5s, 500ms; 1ms to 24h [10]\n"
		"  --wait SECONDS     acquire: wait this long in the server's queue\n"
		"                     for held ports (wait_s), and as much more for\n"
		"                     the reply: 30, 10m; 1ms to 24h [0: no wait]\n"
		"  -h, --help\n"
		"  --version  wirerate's and DPDK's versions\n\n"
		"Exit status: 0 a result, 1 an error reply, no server or no reply\n"
		"within --timeout, 2 bad usage.\n", f);
	return f == stdout ? APP_EXIT_OK : APP_EXIT_USAGE;
}

/* --timeout's or --wait's value into *ms; -1 with a message on a bad one. */
static int
parse_duration(const char *opt, const char *s, uint64_t *ms)
{
	if (wr_units_parse_duration_ms(s, ms) != 0 || *ms == 0 ||
			*ms > CTL_TIMEOUT_MAX_MS) {
		fprintf(stderr, "wirerate: error: ctl: --%s %s: a duration "
			"of 1ms to 24h is expected (10, 2.5s, 500ms)\n", opt, s);
		return -1;
	}
	return 0;
}

/* Parse argv into a: 1 to go on, or the exit code (--help, bad usage). */
static int
parse_args(int argc, char **argv, struct ctl_args *a)
{
	static const struct option opts[] = {
		{ "timeout", required_argument, NULL, 't' },
		{ "wait", required_argument, NULL, 'w' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	a->timeout_ms = CTL_TIMEOUT_MS;
	a->wait_ms = 0;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if (c == 'h')
			return usage(stdout);
		if (c != 't' && c != 'w') {
			char msg[256];

			app_bad_option_msg("wirerate ctl", opts, argv[optind - 1], msg,
				sizeof(msg));
			fprintf(stderr, "wirerate: error: ctl: %s\n", msg);
			return APP_EXIT_USAGE;
		}
		if (parse_duration(c == 't' ? "timeout" : "wait", optarg,
				c == 't' ? &a->timeout_ms : &a->wait_ms) != 0)
			return APP_EXIT_USAGE;
	}
	if (argc - optind < 2)
		return usage(stderr);
	if (a->wait_ms > 0 && strcmp(argv[optind + 1], "acquire") != 0) {
		fprintf(stderr, "wirerate: error: ctl: --wait goes with acquire, "
			"not %s\n", argv[optind + 1]);
		return APP_EXIT_USAGE;
	}
	a->path = argv[optind];
	a->method = argv[optind + 1];
	a->params = argv + optind + 2;
	a->nb_params = argc - optind - 2;
	return 1;
}

/* key=value arguments into params; -1 with a message on a bad one. */
static int
params_of(int argc, char **argv, json_t *params)
{
	json_t *v;
	char *eq;
	int i;

	for (i = 0; i < argc; i++) {
		eq = strchr(argv[i], '=');
		if (eq == NULL || eq == argv[i]) {
			fprintf(stderr, "wirerate: error: ctl: %s: expected key=value\n",
				argv[i]);
			return -1;
		}
		*eq = '\0';
		v = json_loads(eq + 1, JSON_DECODE_ANY, NULL);
		if (v == NULL)
			v = json_string(eq + 1);
		json_object_set_new(params, argv[i], v);
	}
	return 0;
}

/* Whether errno says a wait bounded by --timeout ran out. */
static bool
timed_out(void)
{
	return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINPROGRESS;
}

/*
 * A connection to path whose connect and sends wait at most timeout_ms
 * (SO_SNDTIMEO); -1 with a message (*late: the wait ran out).
 */
static int
connect_to(const char *path, uint64_t timeout_ms, bool *late)
{
	struct timeval tv = { .tv_sec = (time_t)(timeout_ms / 1000),
		.tv_usec = (suseconds_t)(timeout_ms % 1000) * 1000 };
	struct sockaddr_un sa;
	int fd;

	memset(&sa, 0, sizeof(sa));
	sa.sun_family = AF_UNIX;
	if (strlen(path) >= sizeof(sa.sun_path)) {
		fprintf(stderr, "wirerate: error: ctl: %s: longer than a UNIX socket "
			"path may be\n", path);
		return -1;
	}
	strcpy(sa.sun_path, path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd >= 0 && setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv,
			sizeof(tv)) == 0 &&
			connect(fd, (const struct sockaddr *)&sa, sizeof(sa)) == 0)
		return fd;
	*late = timed_out();
	if (!*late)
		fprintf(stderr, "wirerate: error: ctl: %s: %s (is a server or a run "
			"with --control there?)\n", path, strerror(errno));
	if (fd >= 0)
		close(fd);
	return -1;
}

/* Send all n bytes of s; -1 on an error (*late: SO_SNDTIMEO ran out). */
static int
send_all(int fd, const char *s, size_t n, bool *late)
{
	ssize_t w;

	while (n > 0) {
		w = send(fd, s, n, MSG_NOSIGNAL);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			*late = w < 0 && timed_out();
			return -1;
		}
		s += w;
		n -= (size_t)w;
	}
	return 0;
}

/*
 * Wait until fd has bytes to read or deadline_ms (app_ctl_now_ms) has
 * passed: 0, or -1 with *late when the time ran out.
 */
static int
wait_readable(int fd, uint64_t deadline_ms, bool *late)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	uint64_t now;
	int rc;

	do {
		now = app_ctl_now_ms();
		if (now >= deadline_ms) {
			*late = true;
			return -1;
		}
		rc = poll(&p, 1, (int)(deadline_ms - now));
	} while (rc < 0 && errno == EINTR);
	if (rc == 0)
		*late = true;
	return rc > 0 ? 0 : -1;
}

/*
 * Read one reply line from fd, however long (a result document may be
 * larger than the limit on requests), until deadline_ms. NULL when the
 * server closed first or, with *late, did not answer in time.
 */
static json_t *
read_reply(int fd, uint64_t deadline_ms, bool *late)
{
	size_t len = 0, cap = 65536;
	char *buf = malloc(cap), *nb;
	json_t *reply = NULL;
	ssize_t n;

	while (buf != NULL && wait_readable(fd, deadline_ms, late) == 0) {
		if (len == cap) {
			nb = realloc(buf, cap * 2);
			if (nb == NULL)
				break;
			buf = nb;
			cap *= 2;
		}
		n = recv(fd, buf + len, cap - len, 0);
		if (n <= 0)
			break;
		len += (size_t)n;
		if (memchr(buf + len - (size_t)n, '\n', (size_t)n) != NULL) {
			reply = json_loadb(buf, len, JSON_DISABLE_EOF_CHECK, NULL);
			break;
		}
	}
	free(buf);
	return reply;
}

/*
 * The request line (with its '\n') to a's socket and *reply, NULL when
 * none came (*late: not within a->timeout_ms). Returns -1 when there was
 * no server to ask (said on stderr), else 0.
 */
static int
exchange(const struct ctl_args *a, const char *line, json_t **reply,
		bool *late)
{
	uint64_t deadline_ms = app_ctl_now_ms() + a->timeout_ms + a->wait_ms;
	int fd = connect_to(a->path, a->timeout_ms, late);

	*reply = NULL;
	if (fd < 0)
		return *late ? 0 : -1;
	if (send_all(fd, line, strlen(line), late) == 0)
		*reply = read_reply(fd, deadline_ms, late);
	close(fd);
	return 0;
}

/* Print the result, or the error on stderr; the exit code. */
static int
show(json_t *reply, const struct ctl_args *a, bool late)
{
	json_t *e = json_object_get(reply, "error");

	if (reply == NULL && late) {
		fprintf(stderr, "wirerate: error: ctl %s: %s: no reply within %g s "
			"(--timeout): the server does not answer\n", a->method, a->path,
			(double)a->timeout_ms / 1000.0);
		return APP_EXIT_FAILED;
	}
	if (reply == NULL) {
		fprintf(stderr, "wirerate: error: ctl %s: no reply (the server "
			"closed the connection)\n", a->method);
		return APP_EXIT_FAILED;
	}
	if (e != NULL) {
		fprintf(stderr, "wirerate: error: ctl %s: %s (%" JSON_INTEGER_FORMAT
			")\n", a->method, json_string_value(json_object_get(e, "message")),
			json_integer_value(json_object_get(e, "code")));
		return APP_EXIT_FAILED;
	}
	json_dumpf(json_object_get(reply, "result"), stdout, JSON_INDENT(2));
	printf("\n");
	return APP_EXIT_OK;
}

/*
 * The request line of a, '\n' included, into *line (malloc'd). Returns 0,
 * or the exit code with a message.
 */
static int
request_line(const struct ctl_args *a, char **line)
{
	json_t *params = json_object(), *req;
	char *s;
	size_t n;

	if (params == NULL || params_of(a->nb_params, a->params, params) != 0) {
		json_decref(params);
		return params == NULL ? APP_EXIT_FAILED : APP_EXIT_USAGE;
	}
	if (a->wait_ms > 0)
		json_object_set_new(params, "wait_s", json_real((double)a->wait_ms /
			1000.0));
	req = json_pack("{s:s, s:i, s:s, s:o}", "jsonrpc", "2.0", "id", 1,
		"method", a->method, "params", params);
	if (req == NULL) {
		fprintf(stderr, "wirerate: error: ctl: %s: the method and the "
			"values must be UTF-8\n", a->method);
		return APP_EXIT_USAGE;
	}
	s = json_dumps(req, JSON_COMPACT);
	json_decref(req);
	n = s != NULL ? strlen(s) : 0;
	*line = s != NULL ? realloc(s, n + 2) : NULL;
	if (*line == NULL) {
		fprintf(stderr, "wirerate: error: ctl: no memory for the request\n");
		free(s);
		return APP_EXIT_FAILED;
	}
	memcpy(*line + n, "\n", 2);
	return 0;
}

int
app_ctl_main(int argc, char **argv)
{
	struct ctl_args a;
	bool late = false;
	json_t *reply;
	char *line;
	int rc;

	rc = parse_args(argc, argv, &a);
	if (rc != 1)
		return rc;
	rc = request_line(&a, &line);
	if (rc != 0)
		return rc;
	rc = exchange(&a, line, &reply, &late);
	free(line);
	if (rc != 0)
		return APP_EXIT_FAILED;
	rc = show(reply, &a, late);
	json_decref(reply);
	return rc;
}
