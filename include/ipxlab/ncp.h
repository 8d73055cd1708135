/*
 * ncp.h - NCP (NetWare Core Protocol) over IPX: the packet headers, the
 * completion codes and the data conventions the server (ncp_server.h) and
 * the client (ncp_client.h) share. docs/ncp.md says what is implemented.
 *
 * Transport: the server listens on socket 0x451; requests and replies are
 * IPX packet type 17. A client connection is named by the client's full
 * IPX address (network, node, socket).
 *
 * Request header (ncp+0 is the first byte after the IPX header), 7 bytes:
 *   off size field
 *     0    2 request type   1111 create, 2222 request, 5555 destroy (BE)
 *     2    1 sequence       8 bits, one more per new request, wraps
 *     3    1 connection     low byte (FF for 1111)
 *     4    1 task           the client's task number
 *     5    1 connection     high byte (FF for 1111)
 *     6    1 function       0 for 1111 and 5555
 *     7    . data           functions 0x16, 0x17 (and others with a length
 *                           word): +7 length BE2, +9 sub-function, +10 data
 *
 * Reply header, 8 bytes:
 *   off size field
 *     0    2 reply type     3333 reply, 9999 "request being processed" (BE)
 *     2    1 sequence       the request's
 *     3    1 connection     low byte
 *     4    1 task           the request's
 *     5    1 connection     high byte
 *     6    1 completion     0 = success, else enum ncp_cc
 *     7    1 status         connection status bits (NCP_STATUS_*)
 *     8    . data
 *
 * Watchdog (server to the client's NCP socket + 1), 2 bytes:
 *   [connection low byte]['?'], answered with [connection low byte]['Y'].
 *
 * Inside NCP: sizes, offsets, IDs, search sequences and DOS dates are
 * big-endian; names are length-prefixed (one byte, no NUL) unless a field
 * has a fixed width (NUL-padded); a file handle is 6 opaque bytes; a
 * directory handle one byte (1..255, 0 = none).
 */
#ifndef IPXLAB_NCP_H
#define IPXLAB_NCP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#ifdef __cplusplus
extern "C" {
#endif

#define NCP_REQ_HDR_LEN 7
#define NCP_REP_HDR_LEN 8
#define NCP_HANDLE_LEN 6
#define NCP_WDOG_LEN 2

enum ncp_type {
	NCP_TYPE_CREATE = 0x1111,
	NCP_TYPE_REQUEST = 0x2222,
	NCP_TYPE_REPLY = 0x3333,
	NCP_TYPE_DESTROY = 0x5555,
	NCP_TYPE_BURST = 0x7777,
	NCP_TYPE_BUSY = 0x9999,
};

/* Connection status bits of a reply. */
enum {
	NCP_STATUS_BAD_CONN = 0x01,
	NCP_STATUS_SERVER_DOWN = 0x10,
	NCP_STATUS_BROADCAST = 0x40,
};

/* The watchdog signatures. */
enum { NCP_WDOG_POLL = '?', NCP_WDOG_ALIVE = 'Y' };

/* Attribute bits of files and directories. */
enum {
	NCP_ATTR_READ_ONLY = 0x01,
	NCP_ATTR_HIDDEN = 0x02,
	NCP_ATTR_SYSTEM = 0x04,
	NCP_ATTR_EXEC_ONLY = 0x08,
	NCP_ATTR_DIRECTORY = 0x10,
	NCP_ATTR_ARCHIVE = 0x20,
	NCP_ATTR_SHAREABLE = 0x80,
};

/* Search attributes: which entries a search may return. */
enum { NCP_SATTR_HIDDEN = 0x02, NCP_SATTR_SYSTEM = 0x04, NCP_SATTR_DIR = 0x10 };

/* Directory access rights (the open mode of 0x4C/0x54 is NCP_SHARE_*). */
enum {
	NCP_RIGHT_READ = 0x01,
	NCP_RIGHT_WRITE = 0x02,
	NCP_RIGHT_OPEN = 0x04,
	NCP_RIGHT_CREATE = 0x08,
	NCP_RIGHT_DELETE = 0x10,
	NCP_RIGHT_PARENTAL = 0x20,
	NCP_RIGHT_SEARCH = 0x40,
	NCP_RIGHT_MODIFY = 0x80,
	NCP_RIGHTS_ALL = 0xFF,
};

/* The access-rights byte of 0x4C/0x54 (an open mode, not directory
 * rights; Novell's AR_* and mars_nwe's share_file): what the handle may
 * do and what it denies other handles of the same file. Exclusive is
 * both denies. Compatibility (0x10) adds no deny of its own (mars_nwe). */
enum {
	NCP_SHARE_READ = 0x01,
	NCP_SHARE_WRITE = 0x02,
	NCP_SHARE_DENY_READ = 0x04,
	NCP_SHARE_DENY_WRITE = 0x08,
	NCP_SHARE_EXCLUSIVE = 0x0C,
	NCP_SHARE_COMPAT = 0x10,
};

/* Action flags of 0x54 Open/Create. */
enum { NCP_ACT_OPEN = 0x01, NCP_ACT_REPLACE = 0x02, NCP_ACT_CREATE = 0x10 };

/* Lock flags of 0x1A/0x1B. */
enum { NCP_LOCK_LOG = 0x00, NCP_LOCK_EXCL = 0x01, NCP_LOCK_SHARED = 0x03 };

/* Bindery object types. */
enum { NCP_OBJ_USER = 0x0001 };

/*
 * Completion codes the server sends and the client names (one byte on the
 * wire; the meaning depends on the call, as in Novell's documentation and
 * Wireshark's NCP dissector).
 */
#define NCP_CCS(X)                                                           \
	X(OK, 0x00, "success")                                              \
	X(LOCK_FAIL, 0x80, "lock failure / file in use")                    \
	X(NO_HANDLES, 0x81, "out of file handles")                          \
	X(NO_OPEN, 0x82, "no open privilege")                               \
	X(IO, 0x83, "I/O error on the server's disk")                       \
	X(NO_CREATE, 0x84, "no create privilege")                           \
	X(NO_CREATE_DELETE, 0x85, "no create/delete (overwrite) privilege") \
	X(CREATE_NAME, 0x87, "create filename error")                       \
	X(BAD_HANDLE, 0x88, "invalid file handle")                          \
	X(NO_SEARCH, 0x89, "no search privilege")                           \
	X(NO_DELETE, 0x8A, "no delete privilege")                           \
	X(NO_RENAME, 0x8B, "no rename privilege")                           \
	X(NO_MODIFY, 0x8C, "no set/modify privilege")                       \
	X(SOME_IN_USE, 0x8D, "some files in use")                           \
	X(ALL_IN_USE, 0x8E, "all files in use")                             \
	X(SOME_RO, 0x8F, "some files read-only")                            \
	X(ALL_RO, 0x90, "all files read-only")                              \
	X(NAME_EXISTS, 0x92, "a file with the new name exists")            \
	X(NO_READ, 0x93, "no read privilege")                               \
	X(NO_WRITE, 0x94, "no write privilege / file opened read-only")     \
	X(NO_MEMORY, 0x96, "server out of memory / a per-connection limit reached") \
	X(NO_VOLUME, 0x98, "volume does not exist")                         \
	X(DIR_FULL, 0x99, "directory full")                                 \
	X(CROSS_VOLUME, 0x9A, "rename across volumes")                      \
	X(BAD_DIR_HANDLE, 0x9B, "bad directory handle")                     \
	X(BAD_PATH, 0x9C, "invalid path")                                   \
	X(NO_DIR_HANDLES, 0x9D, "no more directory handles")                \
	X(BAD_NAME, 0x9E, "bad file name")                                  \
	X(DIR_IN_USE, 0x9F, "directory in use / not empty")                 \
	X(DIR_IO, 0xA1, "directory I/O error")                              \
	X(REGION_LOCKED, 0xA2, "region locked by another connection")       \
	X(BAD_NAME_SPACE, 0xBF, "invalid name space")                      \
	X(NO_PLAINTEXT, 0xD6, "unencrypted passwords not allowed")          \
	X(BAD_PASSWORD, 0xDE, "bad password")                               \
	X(NO_SLOTS, 0xF9, "no free connection slots")                       \
	X(UNKNOWN_REQUEST, 0xFB, "unknown request / function not supported") \
	X(NO_OBJECT, 0xFC, "no such object")                                \
	X(BAD_STATION, 0xFD, "bad station number / lock collision")         \
	X(TIMEOUT, 0xFE, "timed out waiting (lock) / directory locked")     \
	X(FAILURE, 0xFF, "failure / no such file / no more entries")

#define NCP_CC_ENUM_(id, val, msg) NCP_CC_##id = val,
enum ncp_cc { NCP_CCS(NCP_CC_ENUM_) };
#undef NCP_CC_ENUM_

/* "NAME (text)" for a completion code; "unnamed completion code" for
 * values not in the table. ncp_cc_id gives "BAD_PATH" and so on. */
const char *ncp_cc_text(uint8_t cc);
const char *ncp_cc_id(uint8_t cc);

/* A decoded request header (the function's data follows at ncp+7). */
struct ncp_req_hdr {
	uint16_t type;
	uint8_t seq;
	uint16_t conn;
	uint8_t task;
	uint8_t function;
};

struct ncp_rep_hdr {
	uint16_t type;
	uint8_t seq;
	uint16_t conn;
	uint8_t task;
	uint8_t cc;
	uint8_t status;
};

/* Decoders: 0, or -1 if the packet is shorter than the header. */
int ncp_req_decode(const uint8_t *p, size_t len, struct ncp_req_hdr *out);
int ncp_rep_decode(const uint8_t *p, size_t len, struct ncp_rep_hdr *out);
/* Encoders write exactly NCP_REQ_HDR_LEN / NCP_REP_HDR_LEN bytes. */
void ncp_req_encode(const struct ncp_req_hdr *h, uint8_t *out);
void ncp_rep_encode(const struct ncp_rep_hdr *h, uint8_t *out);

/* True for the functions whose sub-function follows a length word. */
bool ncp_has_length_word(uint8_t function);

/* DOS date and time of a host time (local time), as NetWare sends them. */
uint16_t ncp_dos_date(time_t t);
uint16_t ncp_dos_time(time_t t);

/*
 * A reader over request or reply data: every get past the end sets 'bad'
 * and returns zeros, so a parser checks once at the end.
 */
struct ncp_rd {
	const uint8_t *p;
	size_t len, off;
	bool bad;
};

static inline void ncp_rd_init(struct ncp_rd *r, const uint8_t *p, size_t len)
{
	r->p = p;
	r->len = len;
	r->off = 0;
	r->bad = false;
}

uint8_t ncp_rd8(struct ncp_rd *r);
uint16_t ncp_rd16(struct ncp_rd *r);		/* big-endian */
uint32_t ncp_rd32(struct ncp_rd *r);		/* big-endian */
/* 'n' bytes (pointer into the data), NULL and bad if fewer are left. */
const uint8_t *ncp_rdn(struct ncp_rd *r, size_t n);
/* A length-prefixed string into out (NUL-terminated); its length, or -1
 * (and bad) if it runs past the end or does not fit 'cap'. */
int ncp_rdstr(struct ncp_rd *r, char *out, size_t cap);

/* A writer into a fixed buffer; a put past 'cap' sets 'bad'. */
struct ncp_wr {
	uint8_t *p;
	size_t cap, len;
	bool bad;
};

static inline void ncp_wr_init(struct ncp_wr *w, uint8_t *p, size_t cap)
{
	w->p = p;
	w->cap = cap;
	w->len = 0;
	w->bad = false;
}

void ncp_wr8(struct ncp_wr *w, uint8_t v);
void ncp_wr16(struct ncp_wr *w, uint16_t v);	/* big-endian */
void ncp_wr32(struct ncp_wr *w, uint32_t v);	/* big-endian */
void ncp_wrn(struct ncp_wr *w, const void *data, size_t n);
/* A string in a fixed NUL-padded field of 'width' bytes (cut to fit). */
void ncp_wrfixed(struct ncp_wr *w, const char *s, size_t width);
/* A length-prefixed string (at most 255 bytes). */
void ncp_wrstr(struct ncp_wr *w, const char *s);

#ifdef __cplusplus
}
#endif

#endif
