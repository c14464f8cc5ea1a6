/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * --mode conn-capacity (RFC 9693 7, docs/conncap.md): the rules of its
 * options and the engine's settings it implies.
 */
#ifndef WR_CONFIG_OPTS_CONNCAP_H
#define WR_CONFIG_OPTS_CONNCAP_H

#include "base/error.h"

struct wr_config;

/* The opening rate by default (connections/s per port): slow enough
 * that a device's table, not its set-up rate, is what fails. */
#define WR_CONNCAP_RATE_DEFAULT 1000u
/* A SYN not answered this long fails its connection: the SYN and its
 * one retry (1 s later, RFC 6298's first RTO) cross the device, once. */
#define WR_CONNCAP_SYN_TIMEOUT_US 2500000u

/*
 * With --mode conn-capacity: an HTTP client is required (--conn client,
 * --conn-app http, no --conn-requests: each connection makes two, its
 * first and its check); the ceiling (--conn-count, else
 * --conn-concurrency) fits the concurrency. Sets hold, two requests a
 * connection, the SYN timeout, the rate by default and the ceiling.
 * Returns 0 (also for another mode) or -EINVAL naming the option.
 */
int wr_opts_conncap_check(struct wr_config *cfg, struct wr_error *err);

#endif /* WR_CONFIG_OPTS_CONNCAP_H */
