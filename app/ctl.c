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
#include "base/rpc.h"

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

/* Read one reply line from fd (at most WR_RPC_MAX_LINE... bytes). */
static json_t *
read_reply(int fd)
{
	struct wr_rpc_reader rd;
	char buf[65536], *line;
	json_t *reply = NULL;
	size_t len;
	ssize_t n;
	int rc = 0;

	wr_rpc_reader_init(&rd);
	while (rc == 0 && (n = recv(fd, buf, sizeof(buf), 0)) > 0) {
		wr_rpc_reader_push(&rd, buf, (size_t)n);
		rc = wr_rpc_reader_next(&rd, &line, &len);
	}
	if (rc == 1)
		reply = json_loadb(line, len, 0, NULL);
	wr_rpc_reader_free(&rd);
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
