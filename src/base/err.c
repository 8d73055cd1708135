/*
 * err.c - messages for the ipx_err codes, from the table in err.h.
 */
#include "ipxlab/err.h"

#define IPX_ERR_MSG_(name, msg) msg,
static const char *const messages[] = { IPX_ERRORS(IPX_ERR_MSG_) };
#undef IPX_ERR_MSG_

const char *ipx_strerror(int err)
{
	int i = -err;

	if (i < 0 || i >= IPX_ERR_COUNT_)
		return "unknown error";
	return messages[i];
}
