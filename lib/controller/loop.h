/*
 * The list-watch loop as decisions (ds_controller_step): per watched resource a
 * reflector (reflector.c: list, then watch from the list's resourceVersion,
 * relist when that version is gone, back off after every failure), the leader
 * election that gates it (elector.c), and what the host is told to do next
 * (loop.c). No threads, no clocks: time is a parameter, and the host moves the
 * bytes of every call the library starts.
 */
#ifndef DSI_CTRL_LOOP_H
#define DSI_CTRL_LOOP_H

#include <jansson.h>
#include <stdint.h>

#include "controller/lease.h"
#include "controller/retry.h"
#include "core/jsonframe.h"
#include "core/error.h"
#include "core/strbuf.h"
#include "daemonset/controller.h"

enum { DSI_NREFLECTORS = 4 };

typedef enum dsi_call_kind {
	DSI_CALL_LIST,
	DSI_CALL_WATCH,
	DSI_CALL_LEASE_GET,
	DSI_CALL_LEASE_CREATE,
	DSI_CALL_LEASE_UPDATE,
} dsi_call_kind;

/* A call the library started and the host performs. */
typedef struct dsi_iocall {
	uint64_t id;
	int kind;         /* dsi_call_kind */
	int refl;         /* LIST, WATCH: the reflector */
	int status;       /* the HTTP status; 0 until the response */
	int responded;    /* the status is known */
	ds_time started;  /* when the host was told to start it */
	ds_time deadline; /* closed by the library then */
	ds_time heard;    /* when the host last handed over something of it */
	uint64_t bytes;   /* of the body, so far */
	uint64_t events;  /* WATCH: events received */
	int over;         /* the body went beyond maxDocumentBytes (or the error body beyond its cap) */
	dsi_strbuf body;  /* the reply (a list, a Lease, a Status); WATCH: the event being received */
	dsi_jframe frame; /* WATCH: where each event begins and ends */
	char *failure;    /* the reason the library gave the call up, once it did */
	struct dsi_iocall *next;
} dsi_iocall;

typedef enum dsi_rstate {
	DSI_R_WAIT_LIST,  /* list at due */
	DSI_R_LISTING,    /* call open */
	DSI_R_WAIT_WATCH, /* watch at due */
	DSI_R_WATCHING,   /* call open */
} dsi_rstate;

typedef struct dsi_reflector {
	int index;
	int state;   /* dsi_rstate */
	ds_time due; /* WAIT_*: when to start */
	dsi_iocall *call;
	char *rv;           /* lastSyncResourceVersion ("" until the first list) */
	int rv_unavailable; /* isLastSyncResourceVersionUnavailable: list from etcd ("") */
	int synced;         /* HasSynced: a list was applied */
	ds_time listed_at;  /* the last applied list (relistPeriod) */
	uint64_t lists, watches, failures, events;
	char *last_error;
} dsi_reflector;

/* What the host is told, in order, before anything new starts: closes and log lines. */
typedef struct dsi_note {
	int op; /* DS_IO_CLOSE or DS_IO_LOG */
	uint64_t id;
	int level;
	char *message;
	struct dsi_note *next;
} dsi_note;

typedef struct dsi_elector dsi_elector;

typedef struct dsi_loop {
	int started;
	dsi_rng rng;
	dsi_retry backoff; /* shared by every reflector: a storm of failures slows them all */
	dsi_reflector refl[DSI_NREFLECTORS];
	dsi_iocall *calls; /* open calls */
	uint64_t next_id;
	uint64_t requests; /* calls started */
	dsi_note *notes, *notes_tail;
	size_t nlogs;
	uint64_t dropped_logs;
	int stopping; /* ds_controller_stop: close, release, then stopped */
	int stopped;
	int cache_synced;     /* every reflector listed once: syncs may run */
	dsi_elector *elector; /* NULL: no leader election */
	/* the action last returned: its strings live until the next call */
	char *io_path, *io_rv, *io_body, *io_message, *io_ns, *io_name;
} dsi_loop;

struct ds_controller;

/* loop.c: the entry points behind ds_controller_step and the ds_controller_io_* calls */
void dsi_loop_init(struct ds_controller *c);
/* Leader election before listing (before the first step, else DS_ESTATE). */
int dsi_loop_set_lease(struct ds_controller *c, const ds_lease_config *cfg, ds_error *err);
void dsi_loop_destroy(dsi_loop *l);
int dsi_loop_step(struct ds_controller *c, ds_time now, ds_io *io, ds_error *err);
int dsi_loop_response(struct ds_controller *c, uint64_t id, int status, ds_time now, ds_error *err);
int dsi_loop_data(struct ds_controller *c, uint64_t id, const char *data, size_t size, ds_time now, ds_error *err);
int dsi_loop_end(struct ds_controller *c, uint64_t id, const char *error, ds_time now, ds_error *err);
int dsi_loop_stop(struct ds_controller *c, ds_time now, ds_error *err);
json_t *dsi_loop_status(const struct ds_controller *c, ds_time now);

/* For reflector.c and elector.c: a log line for the host (-1: out of memory). */
int dsi_loop_log(struct ds_controller *c, int level, const char *fmt, ...) DSI_PRINTF(3, 4);
/* A new open call (NULL: out of memory); timeout_ms from now it is past its deadline. */
dsi_iocall *dsi_loop_call_new(struct ds_controller *c, int kind, ds_time now, int64_t timeout_ms);
/* The call is over (the host ended it): forget it. */
void dsi_loop_call_done(struct ds_controller *c, dsi_iocall *call);
/* The library gives the call up: forget it and tell the host to abort it (-1: out of memory). */
int dsi_loop_call_close(struct ds_controller *c, dsi_iocall *call);
/* An error reply's Status message (else what its status means), then ": error" when given. New string. */
char *dsi_loop_status_message(const dsi_iocall *call, const char *error);
void dsi_loop_status_reason(const dsi_iocall *call, char *buf, size_t size);

#endif
