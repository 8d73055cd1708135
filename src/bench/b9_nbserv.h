/*
 * b9_nbserv.h - B9's NetBIOS server node (b9_nbserv.c): one NetBIOS
 * module on one node (one adapter) that adds a name and LISTENs for
 * several sessions at once, as a LAN Manager server does, then serves
 * them all concurrently: it RECEIVEs on each (the workstations write) or
 * SENDs on each for a time (the workstations read).
 */
#ifndef IPXLAB_B9_NBSERV_H
#define IPXLAB_B9_NBSERV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ipxlab/bench_b9.h"
#include "ipxlab/node.h"

struct b9_nbs;

/* Open NetBIOS on node, add its name and post 'sessions' LISTENs; with
 * send, each session SENDs messages of msg bytes once b9_nbs_go is
 * called. IPX_OK or an error with its message in err. */
int b9_nbs_open(struct ipx_node *node, unsigned sessions, bool send,
		size_t msg, struct b9_nbs **out, char *err, size_t errlen);
/* The name the workstations CALL (16 bytes, space padded). */
const uint8_t *b9_nbs_name(const struct b9_nbs *s);
/* The name is added and the LISTENs are posted. */
bool b9_nbs_listening(const struct b9_nbs *s);
/* Sessions up (LISTENs completed). */
unsigned b9_nbs_sessions(const struct b9_nbs *s);
/* Send mode: SEND on every session, back to back, for 'seconds'. */
void b9_nbs_go(struct b9_nbs *s, double seconds);
/* Send mode: every session's last SEND is done (or one failed). */
bool b9_nbs_done(const struct b9_nbs *s);
/* The first failure's message, "" when none. */
const char *b9_nbs_error(const struct b9_nbs *s);
/* Session i's data: bytes sent (send mode: SENDs acknowledged) or
 * received, and the seconds from go to its last SEND's end. */
void b9_nbs_result(const struct b9_nbs *s, unsigned i, uint64_t *bytes,
		   double *seconds);
/* HANG UP every session and close; NULL is ignored. */
void b9_nbs_free(struct b9_nbs *s);

#endif
