/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The checks of a far end's answers (app/run/peer_check.c).
 */
#ifndef WR_APP_PEER_CHECK_H
#define WR_APP_PEER_CHECK_H

#include <stdint.h>

#include <jansson.h>

#include "setup/run.h"

/*
 * peer_end's answer res for trial tag against what run knows: the trial
 * it asked, streams it sent, each count an integer from 0, rx_pkts at
 * most what the run sent of that stream, prev_pkts an array of counts.
 * Returns NULL when every field passes; else the first field that fails,
 * with *why (what is wrong with it) and *value (its JSON, or NULL when
 * missing). Pure: reads res and run only.
 */
const char *app_peer_check_end(const struct wr_run *run, uint16_t tag,
		const json_t *res, const char **why, const json_t **value);

#endif /* WR_APP_PEER_CHECK_H */
