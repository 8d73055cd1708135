/*
 * log.h - leveled logging to stderr.
 *
 * One process-wide threshold (set once by the CLI from -v/-q); messages
 * below it cost one comparison. Each line is "ipxlab[pid] level: text".
 */
#ifndef IPXLAB_LOG_H
#define IPXLAB_LOG_H

#ifdef __cplusplus
extern "C" {
#endif

enum ipx_log_level {
	IPX_LOG_ERROR,
	IPX_LOG_WARN,
	IPX_LOG_INFO,
	IPX_LOG_DEBUG,
};

void ipx_log_set_level(enum ipx_log_level level);
enum ipx_log_level ipx_log_get_level(void);
void ipx_log(enum ipx_log_level level, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#define ipx_error(...) ipx_log(IPX_LOG_ERROR, __VA_ARGS__)
#define ipx_warn(...) ipx_log(IPX_LOG_WARN, __VA_ARGS__)
#define ipx_info(...) ipx_log(IPX_LOG_INFO, __VA_ARGS__)
#define ipx_debug(...) ipx_log(IPX_LOG_DEBUG, __VA_ARGS__)

#ifdef __cplusplus
}
#endif

#endif
