/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The far end of a two-ended run (docs/twoended.md): a sender's
 * `--peer` names this server, which counts the sender's frames on its
 * ports trial by trial. The control thread answers the peer_* methods
 * (peer_methods.c) by asking the main lcore, which owns the session's run
 * (peer_serve.c), and waiting for its answer. Every field of struct
 * app_peer is read and written under app_ctl.lock.
 */
#ifndef WR_APP_PEER_H
#define WR_APP_PEER_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include <jansson.h>

#include "config/config.h"

enum app_peer_op {
	APP_PEER_NONE = 0,
	APP_PEER_OPEN,   /* a session: the run of cfg, kept over its trials */
	APP_PEER_TRIAL,  /* trial tag starts: count its frames */
	APP_PEER_END,    /* the trial ends: its counts */
	APP_PEER_CLOSE,  /* the session ends: the run closed */
};

/* The one session a server holds at a time, and the op asked of it. */
struct app_peer {
	pthread_cond_t cond;        /* the main lcore answered */
	enum app_peer_op op;        /* asked, not taken yet */
	uint16_t tag;               /* TRIAL, END: the trial's tag */
	uint32_t frame_size;        /* TRIAL */
	double rate_pps;            /* TRIAL: its TX rate per port (both
	                             * directions), 0: it sends nothing */
	uint64_t duration_ms;       /* TRIAL: TX stops after it (0: at END) */
	bool count_only;            /* TRIAL: send nothing, count (settle) */
	struct wr_config *cfg;      /* OPEN: the session's run options */
	char cmdline[1024];         /* OPEN: what the session's run records */
	uint64_t asked, answered;   /* ops asked; the last one answered */
	json_t *reply;              /* the answer (NULL: error code, msg) */
	int code;
	char msg[1100];  /* an error's message (WR_ERROR_MSG_LEN and more) */
	bool session;               /* a session is open (main lcore) */
	bool in_trial;              /* its trial tag counts now */
	uint16_t cur_tag;
	uint64_t nb_sessions;
	char holder[128];           /* OPEN: the sender that holds the session */
	uint64_t owner;             /* OPEN: its connection (ctl_client serial) */
	time_t since;               /* OPEN: when it opened (wall clock, s) */
	struct timespec last_call;  /* the holder's last peer call (monotonic) */
};

struct app_ctl;

/* Initialise p (nothing asked, no session). This function can't fail. */
void app_peer_init(struct app_peer *p);

/*
 * A peer_* method (peer_open, peer_trial, peer_end, peer_close): fill
 * *result or return an enum wr_rpc_code with a message in msg. Called
 * by the control thread, c->lock not held; waits for the main lcore's
 * answer, at most APP_PEER_ANSWER_S seconds. Returns WR_RPC_NO_METHOD
 * (msg empty) for a method that is not a peer method.
 */
int app_peer_call(struct app_ctl *c, const char *method, json_t *params,
		json_t **result, char *msg, size_t len);

/*
 * A session whose holder made no peer call for --peer-idle is taken to be
 * left by a sender that went away: a new peer_open may end it. Until
 * then a second peer_open is refused (busy).
 */

/* Longest wait of a peer method for the main lcore. */
#define APP_PEER_ANSWER_S 30

/*
 * On the main lcore, when next_run found APP_PEER_OPEN asked: the whole
 * session, from the run's set-up to its close, answering each op; returns
 * when the session is closed, shutdown is asked or *signals turns non-zero.
 * Takes cfg (frees it). This function can't fail (failures are answers).
 */
void app_peer_serve(struct app_ctl *c, struct wr_config *cfg,
		const volatile int *signals);

/*
 * The version this server tells a sender: wirerate's, or for tests the
 * environment's WR_TEST_PEER_VERSION (docs/twoended.md). Can't fail.
 */
const char *app_peer_version(void);

#endif /* WR_APP_PEER_H */
