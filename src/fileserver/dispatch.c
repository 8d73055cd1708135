/*
 * dispatch.c - the NCP server's dispatcher: a request's function number
 * to the file of handlers that answers it (fn_info.c, fn_dir.c,
 * fn_search.c, fn_file.c, locks.c, fn_msg.c); an unknown one is counted and answered
 * 0xFB. server.c calls it once per request it executes.
 */
#include "srv_int.h"

void ncp_fn_dispatch(struct ncp_call *c)
{
	switch (c->hdr.function) {
	case 0x12: case 0x13: case 0x14: case 0x17: case 0x18: case 0x19:
	case 0x21: case 0x61:
		ncp_fn_info(c);
		return;
	case 0x15:
		ncp_fn_msg(c);
		return;
	case 0x16:
		ncp_fn_dir(c);
		return;
	case 0x65:
		ncp_fn_burst_connect(c);	/* fn_burst.c */
		return;
	case 0x1A: case 0x1B: case 0x1C: case 0x1D: case 0x1E: case 0x1F:
		ncp_fn_lock(c);
		return;
	case 0x3E: case 0x3F: case 0x40:
		ncp_fn_search(c);
		return;
	case 0x3B: case 0x3D: case 0x41: case 0x42: case 0x43: case 0x44:
	case 0x45: case 0x46: case 0x47: case 0x48: case 0x49: case 0x4B:
	case 0x4C: case 0x4D: case 0x54:
		ncp_fn_file(c);
		return;
	case 0x57:
		ncp_fn_ns(c);
		return;
	default:
		ncp_unknown(c, false);
	}
}
