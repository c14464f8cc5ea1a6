/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * INI profiles: a run described in a file, read with DPDK's rte_cfgfile.
 * Every key is the long name of a command-line option, placed in the
 * section that groups it:
 *
 *   [ports]   tx-ports rx-ports txq rxq txd rxd burst ring-pairs
 *   [lcores]  map (repeatable: one key per worker lcore)
 *   [frames]  size sizes src-mac dst-mac src-ip dst-ip sport dport flows
 *             vlan
 *   [run]     duration count rate link-speed interval grace link-timeout
 *             latency impair start-on-rx idle-timeout reflect
 *   [test]    mode trial resolution max-trials pdr loss-step b2b-trials
 *             b2b-max repeat warmup
 *   [output]  json csv label plain quiet
 *
 * Options without a value (plain, quiet, start-on-rx, reflect) take yes/no.
 *
 * Values take the syntax of the option. '#' starts a comment. Precedence:
 * defaults < profile < command line; the caller loads the profile into a
 * configuration holding the defaults, then parses the command line over it.
 *
 * Strict on purpose: an unknown section or key, a key in the wrong section,
 * a key given twice, an empty value or a line that is neither a section, a
 * key = value pair nor a comment is an error (rte_cfgfile alone would skip
 * some of them silently). Messages read "FILE:LINE: [section] key = value:
 * what is wrong; what is accepted".
 */
#ifndef WR_PROFILE_H
#define WR_PROFILE_H

#include <stddef.h>

#include "config.h"
#include "base/error.h"

/*
 * Apply the profile at path to cfg and record path in cfg->profile_path.
 * Cross-option rules are left to wr_opts_parse / wr_opts_check, which run
 * once the command line is known. Returns 0, or -EINVAL (bad profile) /
 * -ENOENT (cannot read the file) / -ENOMEM with a message in err.
 */
int wr_profile_load(const char *path, struct wr_config *cfg,
		struct wr_error *err);

/*
 * The section a key belongs in, or NULL when no section accepts it.
 * This function can't fail.
 */
const char *wr_profile_section_of(const char *key);

#endif /* WR_PROFILE_H */
