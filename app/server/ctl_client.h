/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * One client of the control socket (ctl_client.c): its non-blocking
 * socket, its input (the line reader) and its output, each with a bound,
 * so that no client makes the control thread wait or hold more than
 * about CTL_OUT_MAX + WR_RPC_MAX_LINE bytes for it.
 */
#ifndef WR_APP_CTL_CLIENT_H
#define WR_APP_CTL_CLIENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/rpc.h"

/* Unread reply bytes at which a client is dropped as a slow reader. */
#define CTL_OUT_MAX (256u << 10)
/* Bytes read from one client per turn of the loop. */
#define CTL_READ_CHUNK 16384

/* A slot; every field is the control thread's alone. */
struct ctl_client {
	int fd;                /* -1: a free slot */
	uint64_t serial;       /* this connection, unique in the process */
	bool authed;           /* UNIX socket, or TCP after auth */
	uint64_t since_ms;     /* accepted at this app_ctl_now_ms() */
	uint64_t deadline_ms;  /* not authed: closed at this time */
	struct wr_rpc_reader rd;
	char *out;             /* replies not sent yet: out[off, len) */
	size_t off;
	size_t len;
	size_t cap;
};

/* Take fd (non-blocking) into a free slot. This function can't fail. */
void ctl_client_init(struct ctl_client *cl, int fd, bool authed,
		uint64_t now_ms, uint64_t auth_wait_ms);

/* Close the socket and free the buffers; the slot is free again. */
void ctl_client_close(struct ctl_client *cl);

/* Whether a complete line (or a dropped one) waits in the reader. */
bool ctl_client_has_line(const struct ctl_client *cl);

/* Unread reply bytes held for the client. */
size_t ctl_client_pending(const struct ctl_client *cl);

/*
 * Read at most CTL_READ_CHUNK bytes into the reader. Returns 0 (also when
 * nothing was there), or -1 when the client closed, failed or the reader
 * has no memory: drop it.
 */
int ctl_client_read(struct ctl_client *cl);

/*
 * Queue line (freed; NULL: a fixed "no memory" error) and send what the
 * socket takes now. Returns 0, or -1 when the client must be dropped:
 * its socket failed, or CTL_OUT_MAX bytes were already waiting for it to
 * read (a slow reader; the reply is not queued).
 */
int ctl_client_send(struct ctl_client *cl, char *line);

/* Send what the socket takes of the queued replies. 0, or -1: drop it. */
int ctl_client_flush(struct ctl_client *cl);

/*
 * A last word before closing: line (freed) sent if the socket takes it
 * now, what the client sent meanwhile read and discarded (so the close
 * ends in FIN, not RST, where it can), then the slot closed. Can't fail.
 */
void ctl_client_last_word(struct ctl_client *cl, char *line);

#endif /* WR_APP_CTL_CLIENT_H */
