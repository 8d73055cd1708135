/*
 * config.h - SHELL.CFG settings: parsed and validated once, then handed to
 * every module as a struct.
 *
 * Files are SHELL.CFG-style: one "KEY = VALUE" per line (the '=' may be
 * left out, as NET.CFG does), keys case-insensitive with any run of blanks
 * between their words, ';' or '#' starting a comment. Every documented
 * parameter has its default and range; timeouts are in ticks (1/18.2 s).
 * A bad line stops the load with "file:line: what is wrong" and leaves the
 * defaults alone: nothing may start on a half-read configuration.
 */
#ifndef IPXLAB_CONFIG_H
#define IPXLAB_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* How many parameters there are (the table in config.c checks this). */
#define IPX_CFG_NPARAMS 18

struct ipx_config {
	uint32_t ipx_sockets;		/* sockets open at once in one node */
	uint32_t ipx_retry_count;	/* resends by SPX */
	uint32_t spx_connections;
	uint32_t spx_listen_timeout;	/* ticks of silence before a probe */
	uint32_t spx_verify_timeout;	/* ticks between keepalives */
	uint32_t spx_abort_timeout;	/* ticks of silence before abort */
	uint32_t netbios_sessions;
	uint32_t netbios_commands;
	uint32_t netbios_send_buffers;
	uint32_t netbios_receive_buffers;
	uint32_t netbios_listen_timeout;	/* ticks */
	uint32_t netbios_verify_timeout;	/* ticks */
	uint32_t netbios_abort_timeout;		/* ticks */
	uint32_t netbios_retry_delay;		/* milliseconds */
	uint32_t netbios_retry_count;
	uint32_t netbios_broadcast_count;
	uint32_t netbios_broadcast_delay;	/* ticks */
	uint32_t netbios_internet;		/* 0 off, 1 on */

	/* Where each value came from, by parameter index. */
	struct ipx_config_origin {
		uint8_t kind;	/* enum ipx_config_kind */
		uint32_t line;	/* for IPX_CFG_FILE */
	} origin[IPX_CFG_NPARAMS];
	char file[256];		/* the file the IPX_CFG_FILE lines are in */
};

enum ipx_config_kind {
	IPX_CFG_DEFAULT,	/* the documented default */
	IPX_CFG_INTERNET,	/* default changed by NETBIOS INTERNET = ON */
	IPX_CFG_FILE,		/* set in the file */
};

enum ipx_config_unit {
	IPX_CFG_COUNT_UNIT,
	IPX_CFG_TICKS,
	IPX_CFG_MSEC,
	IPX_CFG_ONOFF,
};

/* The description of one parameter. */
struct ipx_config_param {
	const char *name;	/* as written in SHELL.CFG, upper case */
	size_t offset;		/* of its uint32_t in struct ipx_config */
	uint32_t def, min, max;
	uint32_t internet_def;	/* default with NETBIOS INTERNET = ON */
	enum ipx_config_unit unit;
	const char *help;
};

size_t ipx_config_param_count(void);
const struct ipx_config_param *ipx_config_param_at(size_t index);
/* Index of a parameter by its (normalised or not) name, or -1. */
int ipx_config_find(const char *name);

void ipx_config_defaults(struct ipx_config *cfg);
uint32_t ipx_config_value(const struct ipx_config *cfg, size_t index);

/*
 * Parse text (not NUL-terminated; 'name' is used in messages). On error
 * returns IPX_ECONFIG, writes "name:line: what is wrong" to err and leaves
 * cfg untouched.
 */
int ipx_config_parse(struct ipx_config *cfg, const char *name,
		     const char *text, size_t len, char *err, size_t errlen);
/* Read and parse a file; IPX_ECONFIG with a message as above. */
int ipx_config_load(struct ipx_config *cfg, const char *path, char *err,
		    size_t errlen);
/* "default", "default (NETBIOS INTERNET = ON)" or "FILE:LINE". */
void ipx_config_origin_str(const struct ipx_config *cfg, size_t index,
			   char *out, size_t outlen);
/* The unit after a number: " ticks", " ms", or "" (counts, ON/OFF). */
const char *ipx_config_unit_name(enum ipx_config_unit u);
/* A value with its unit, e.g. "108 ticks (5.9 s)" or "ON". */
void ipx_config_value_str(const struct ipx_config *cfg, size_t index,
			  char *out, size_t outlen);

#ifdef __cplusplus
}
#endif

#endif
