/*
 * fsnet_int.h - inside the file-server benchmarks' network (private to
 * src/bench): B6's far side, started and stopped by fsnet_run.c
 * (fsnet_far.c).
 */
#ifndef IPXLAB_BENCH_FSNET_INT_H
#define IPXLAB_BENCH_FSNET_INT_H

#include <stddef.h>

#include "ipxlab/bench_fsnet.h"

/* The bridge of n->o.far to a far hub, the far server there (found by
 * SAP into n->far.ro), the load's node and floods. IPX_OK or an error
 * with a message. */
int ipx_fsnet_far_start(struct ipx_fsnet *n, char *err, size_t errlen);
/* All of it stopped (the floods before their nodes); safe twice. */
void ipx_fsnet_far_stop(struct ipx_fsnet *n);

#endif
