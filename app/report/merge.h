/* SPDX-License-Identifier: BSD-3-Clause */
/* `wirerate merge`: the balance of a two-ended run (merge.c). */
#ifndef WR_APP_MERGE_H
#define WR_APP_MERGE_H

/*
 * wirerate merge SENDER.json RECEIVER.json [--json OUT]: the balance of a
 * two-ended run. argv[0] is "merge". Returns the exit code: 0 balanced,
 * 1 not balanced, 2 bad usage or input.
 */
int app_merge_main(int argc, char **argv);

#endif /* WR_APP_MERGE_H */
