/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Options of --replay (docs/replay.md): --replay FILE, --replay-speed,
 * --replay-loop, and the rules that tie them to the other options. Pure:
 * no EAL; opts.c dispatches to it by option id.
 */
#ifndef WR_OPTS_REPLAY_H
#define WR_OPTS_REPLAY_H

#include "config.h"
#include "base/error.h"

/*
 * Apply option id (optab.h) with value v to cfg.
 * Returns 0, 1 when id is not one of these options, or -EINVAL with a
 * message naming the option and what was expected.
 */
int wr_opts_replay(int id, const char *v, struct wr_config *cfg,
		struct wr_error *err);

/*
 * Rules once every option is known: --replay against the options that
 * build test frames, the test modes and --rate; reads the file (a bad one
 * is refused with the file, the frame number and what is wrong), sets
 * cfg->replay.max_len and cfg->frame_size (ports are set up for the
 * longest frame), and --duration's default to 0 (the file ends the run).
 * Returns 0, -EINVAL, -ENOMEM or a read's -errno, with a message.
 */
int wr_opts_replay_check(struct wr_config *cfg, struct wr_error *err);

#endif /* WR_OPTS_REPLAY_H */
