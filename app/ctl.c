/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * wirerate ctl PATH METHOD [key=value...]: one JSON-RPC request to a
 * control socket (a server's or a plain run's --control), its result on
 * stdout as JSON. A value that reads as JSON (2, 0.5, true, [1,2]) is
 * sent as that, anything else as a string: rate=2Mpps, port=0,
 * pause=true. Exit 0 on a result, 1 on an error reply or no server, 2
 * on bad usage.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "app.h"

static int
usage(FILE *f, const char *prog)
{
	fprintf(f, "Usage: %s ctl PATH METHOD [key=value...]\n"
		"\nSend one request to the control socket PATH (wirerate serve,\n"
		"or a run with --control) and print its result as JSON. Methods:\n"
		"ports, start, status, update, stop, result, shutdown\n"
		"(docs/api.md). A value that reads as JSON is sent as such, any\n"
		"other as a string, e.g.:\n"
		"  %s ctl /run/wr.sock update rate=2Mpps port=0\n"
		"  %s ctl /run/wr.sock update pause=true\n\n"
		"  -h, --help\n"
		"  --version  wirerate's and DPDK's versions\n\n"
		"Exit status: 0 a result, 1 an error reply or no server, 2 bad\n"
		"usage.\n", prog, prog, prog);
	return f == stdout ? APP_EXIT_OK : APP_EXIT_USAGE;
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

static int
connect_to(const char *path)
{
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
	if (fd >= 0 && connect(fd, (const struct sockaddr *)&sa, sizeof(sa)) == 0)
		return fd;
	fprintf(stderr, "wirerate: error: ctl: %s: %s (is a server or a run with "
		"--control there?)\n", path, strerror(errno));
	if (fd >= 0)
		close(fd);
	return -1;
}

/*
 * Read one reply line from fd, however long: a result document may be
 * larger than the limit on requests. NULL when the server closed first.
 */
static json_t *
read_reply(int fd)
{
	size_t len = 0, cap = 65536;
	char *buf = malloc(cap), *nb;
	json_t *reply = NULL;
	ssize_t n;

	while (buf != NULL) {
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

/* Print the result, or the error on stderr; the exit code. */
static int
show(json_t *reply, const char *method)
{
	json_t *e = json_object_get(reply, "error");

	if (reply == NULL) {
		fprintf(stderr, "wirerate: error: ctl %s: no reply (the server "
			"closed the connection)\n", method);
		return APP_EXIT_FAILED;
	}
	if (e != NULL) {
		fprintf(stderr, "wirerate: error: ctl %s: %s (%" JSON_INTEGER_FORMAT
			")\n", method, json_string_value(json_object_get(e, "message")),
			json_integer_value(json_object_get(e, "code")));
		return APP_EXIT_FAILED;
	}
	json_dumpf(json_object_get(reply, "result"), stdout, JSON_INDENT(2));
	printf("\n");
	return APP_EXIT_OK;
}

int
app_ctl_main(int argc, char **argv)
{
	json_t *params, *reply;
	char *req;
	int fd, rc;

	if (argc == 2 && (strcmp(argv[1], "--help") == 0 ||
			strcmp(argv[1], "-h") == 0))
		return usage(stdout, argv[0]);
	if (argc < 3)
		return usage(stderr, argv[0]);
	params = json_object();
	if (params == NULL || params_of(argc - 3, argv + 3, params) != 0) {
		json_decref(params);
		return APP_EXIT_USAGE;
	}
	reply = json_pack("{s:s, s:i, s:s, s:o}", "jsonrpc", "2.0", "id", 1,
		"method", argv[2], "params", params);
	req = json_dumps(reply, JSON_COMPACT);
	json_decref(reply);
	fd = req != NULL ? connect_to(argv[1]) : -1;
	if (fd < 0) {
		free(req);
		return APP_EXIT_FAILED;
	}
	rc = send(fd, req, strlen(req), MSG_NOSIGNAL) < 0 ||
		send(fd, "\n", 1, MSG_NOSIGNAL) < 0 ? -1 : 0;
	free(req);
	reply = rc == 0 ? read_reply(fd) : NULL;
	close(fd);
	rc = show(reply, argv[2]);
	json_decref(reply);
	return rc;
}
