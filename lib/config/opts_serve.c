/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The control socket's listeners (opts_serve.h): where --control-listen
 * and --web listen, checked here once so that a bad address is refused
 * before EAL, naming the option.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <string.h>

#include "optab.h"
#include "opts_serve.h"
#include "opts_values.h"

/*
 * name's ADDR:PORT (ADDR an IPv4 address or [IPv6]) into addr (len
 * bytes) and *port; with dflt, a PORT alone listens on dflt. 0 or
 * -EINVAL with a message.
 */
static int
opt_listen(const char *name, const char *v, const char *dflt, char *addr,
		size_t len, uint16_t *port, struct wr_error *err)
{
	const char *colon = strrchr(v, ':'), *given = v, *num = v;
	unsigned char bin[16];
	size_t n = colon != NULL ? (size_t)(colon - v) : 0;
	uint64_t x;
	int af = AF_INET;

	if (colon == NULL && dflt != NULL) {
		n = strlen(dflt);
		v = dflt;
	} else if (colon != NULL) {
		num = colon + 1;
	}
	if (n >= 2 && v[0] == '[' && v[n - 1] == ']') {
		af = AF_INET6;
		v++;
		n -= 2;
	}
	if (n == 0 || n >= len)
		return wr_err_usage(err, -EINVAL, "--%s %s: expected ADDR:PORT, "
			"e.g. 127.0.0.1:9400 or [::1]:9400", name, given);
	memcpy(addr, v, n);
	addr[n] = '\0';
	if (inet_pton(af, addr, bin) != 1)
		return wr_err_usage(err, -EINVAL, "--%s: %s is not an IP%s address",
			name, addr, af == AF_INET ? "v4" : "v6");
	if (wr_optv_u64(name, num, 1, 65535, &x, err) != 0)
		return -EINVAL;
	*port = (uint16_t)x;
	return 0;
}

int
wr_opts_serve(int c, const char *v, struct wr_config *cfg, struct wr_error *err)
{
	switch (c) {
	case WR_OPT_CONTROL_LISTEN:
		return opt_listen("control-listen", v, NULL, cfg->control_addr,
			sizeof(cfg->control_addr), &cfg->control_port, err);
	case WR_OPT_WEB:
		return opt_listen("web", v, WR_WEB_ADDR_DEFAULT, cfg->web_addr,
			sizeof(cfg->web_addr), &cfg->web_port, err);
	case WR_OPT_WEB_OPEN:
		cfg->web_open = true;
		return 0;
	case WR_OPT_WEB_HISTORY:
		return wr_optv_path("web-history", v, cfg->web_history,
			sizeof(cfg->web_history), err);
	default:
		return 1;
	}
}

int
wr_opts_serve_check(const struct wr_config *cfg, struct wr_error *err)
{
	bool need = cfg->control_path[0] == '\0' ||
		cfg->control_token_path[0] == '\0';

	if (cfg->control_addr[0] != '\0' && need)
		return wr_err_usage(err, -EINVAL, "--control-listen needs --control "
			"PATH and --control-token FILE (TCP never goes without a token)");
	if (cfg->web_addr[0] != '\0' && need)
		return wr_err_usage(err, -EINVAL, "--web needs --control PATH and "
			"--control-token FILE (the page asks for the same secret)");
	if (cfg->web_open && cfg->web_addr[0] == '\0')
		return wr_err_usage(err, -EINVAL, "--web-open: only with --web");
	if (cfg->web_history[0] != '\0' && cfg->web_addr[0] == '\0')
		return wr_err_usage(err, -EINVAL, "--web-history: only with --web");
	return 0;
}
