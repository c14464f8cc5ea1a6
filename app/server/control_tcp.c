/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --control-listen ADDR:PORT: the control socket's requests on TCP, only
 * after an auth request carrying the secret of --control-token (read
 * once, from a file only its owner can read). Never without a token:
 * the option check refuses --control-listen alone.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/exitcode.h"
#include "control_tcp.h"

/* The token file's secret into c: 0, or the exit code with a message. */
static int
read_token(struct app_ctl *c, const char *path)
{
	struct stat st;
	FILE *f = fopen(path, "r");
	size_t n;

	if (f == NULL || fstat(fileno(f), &st) != 0) {
		fprintf(stderr, "wirerate: error: --control-token %s: %s\n", path,
			strerror(errno));
		if (f != NULL)
			fclose(f);
		return APP_EXIT_USAGE;
	}
	n = fread(c->token, 1, sizeof(c->token) - 1, f);
	fclose(f);
	while (n > 0 && (c->token[n - 1] == '\n' || c->token[n - 1] == '\r'))
		n--;
	c->token[n] = '\0';
	c->token_len = n;
	if ((st.st_mode & 077) != 0) {
		fprintf(stderr, "wirerate: error: --control-token %s: others may "
			"read it (mode %03o): chmod 600 it\n", path,
			(unsigned int)(st.st_mode & 0777));
		return APP_EXIT_USAGE;
	}
	if (n < 16 || (size_t)st.st_size >= sizeof(c->token)) {
		fprintf(stderr, "wirerate: error: --control-token %s: the secret "
			"is one line of 16 to %zu characters\n", path,
			sizeof(c->token) - 1);
		return APP_EXIT_USAGE;
	}
	return 0;
}

/* A listening TCP socket on addr:port (IPv4 or IPv6), or -1. */
static int
tcp_listen(const char *addr, uint16_t port)
{
	struct sockaddr_in6 s6;
	struct sockaddr_in s4;
	const struct sockaddr *sa = (const struct sockaddr *)&s4;
	socklen_t len = sizeof(s4);
	int fd, on = 1;

	memset(&s4, 0, sizeof(s4));
	memset(&s6, 0, sizeof(s6));
	s4.sin_family = AF_INET;
	s4.sin_port = htons(port);
	if (inet_pton(AF_INET, addr, &s4.sin_addr) != 1) {
		s6.sin6_family = AF_INET6;
		s6.sin6_port = htons(port);
		inet_pton(AF_INET6, addr, &s6.sin6_addr);
		sa = (const struct sockaddr *)&s6;
		len = sizeof(s6);
	}
	fd = socket(sa->sa_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof(on));
	/* A backlog for bursts: a connection the kernel cannot queue looks
	 * open to its client long before the control thread sees it. */
	if (bind(fd, sa, len) != 0 || listen(fd, CONTROL_BACKLOG) != 0) {
		close(fd);
		return -1;
	}
	return fd;
}

int
app_ctl_tcp_open(struct app_ctl *c, const struct wr_config *cfg)
{
	int rc;

	c->tcp_fd = -1;
	if (cfg->control_addr[0] == '\0' && cfg->web_addr[0] == '\0')
		return 0;
	rc = read_token(c, cfg->control_token_path);
	if (rc != 0 || cfg->control_addr[0] == '\0')
		return rc;
	c->tcp_fd = tcp_listen(cfg->control_addr, cfg->control_port);
	if (c->tcp_fd < 0) {
		fprintf(stderr, "wirerate: error: --control-listen %s:%u: %s\n",
			cfg->control_addr, cfg->control_port, strerror(errno));
		return APP_EXIT_FAILED;
	}
	return 0;
}

bool
app_ctl_token_ok(const struct app_ctl *c, const json_t *params)
{
	const json_t *t = json_object_get(params, "token");
	const char *s = json_string_value(t);
	unsigned char diff = 0;
	size_t i, n;

	if (s == NULL || c->token_len == 0)
		return false;
	n = json_string_length(t);
	/* Time independent of where the strings differ. */
	for (i = 0; i < c->token_len; i++)
		diff |= (unsigned char)(c->token[i] ^ (i < n ? s[i] : 0));
	return diff == 0 && n == c->token_len;
}
