/*
 * err.h - the one error type of ipxlab.
 *
 * Every function that can fail returns an ipx_err: IPX_OK (zero) on success,
 * a negative code otherwise. The codes and their messages come from one
 * X-macro table so the enum and ipx_strerror() can never disagree.
 */
#ifndef IPXLAB_ERR_H
#define IPXLAB_ERR_H

#ifdef __cplusplus
extern "C" {
#endif

#define IPX_ERRORS(X)                                                   \
	X(OK, "success")                                                \
	X(NOMEM, "out of memory")                                       \
	X(INVAL, "invalid argument")                                    \
	X(RANGE, "value out of range")                                  \
	X(SOCKFULL, "socket table full (raise IPX SOCKETS)")            \
	X(INUSE, "socket already open")                                 \
	X(NOTFOUND, "not found")                                        \
	X(TOOBIG, "packet too large for the link")                      \
	X(SHORT, "packet too short")                                    \
	X(BADLEN, "length field disagrees with the packet")             \
	X(IO, "input/output error")                                     \
	X(TIMEOUT, "timed out")                                         \
	X(AGAIN, "try again")                                           \
	X(CONFIG, "bad configuration")                                  \
	X(PERM, "permission denied")                                    \
	X(NOTUP, "link is not up")                                      \
	X(CLOSED, "closed")                                             \
	X(NOROUTE, "no route to network")                               \
	X(RESOLVE, "cannot resolve host")                               \
	X(CONNFULL, "connection table full (raise SPX CONNECTIONS)")    \
	X(NOTCONN, "not connected")                                     \
	X(ABORTED, "connection aborted: the peer stopped answering")   \
	X(REFUSED, "connection refused")

#define IPX_ERR_ENUM_(name, msg) IPX_ERR_##name##_,
enum ipx_err_index_ { IPX_ERRORS(IPX_ERR_ENUM_) IPX_ERR_COUNT_ };
#undef IPX_ERR_ENUM_

/* Error codes: IPX_OK = 0, IPX_ENOMEM = -1, ... */
#define IPX_ERR_DEF_(name, msg) IPX_E##name = -IPX_ERR_##name##_,
typedef enum ipx_err { IPX_ERRORS(IPX_ERR_DEF_) } ipx_err;
#undef IPX_ERR_DEF_
#define IPX_OK IPX_EOK

/* The message for an error code; never NULL, "unknown error" for strays. */
const char *ipx_strerror(int err);

#ifdef __cplusplus
}
#endif

#endif
