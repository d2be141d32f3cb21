/*
 * The fake API server's insides, shared by fakeapi.c (the store, the REST calls,
 * watches, faults), fakecluster.c (scheduler, kubelet, garbage collector,
 * disruption controller) and fakepatch.c (patches and selectors).
 * SPDX-License-Identifier: Apache-2.0
 */
#ifndef DS_TEST_FAKEAPI_INT_H
#define DS_TEST_FAKEAPI_INT_H

#include "fakeapi.h"

typedef struct res_info {
	const char *name, *kind, *group, *version, *qualified;
	int namespaced;
	const char *short_names;  /* comma-separated */
	const char *subresources; /* comma-separated */
} res_info;

typedef struct logent {
	unsigned long long rv;
	const res_info *r;
	char type;   /* 'A', 'M', 'D' */
	json_t *obj; /* as stored after the change (DELETED: the last state, with the deletion's rv) */
	json_t *old; /* before it (M, D), for selector transitions */
} logent;

typedef struct held_line {
	ds_time due;
	char *line;
} held_line;

struct fake_watch {
	fake_api *api;
	const res_info *r;
	char *ns, *label_sel, *field_sel;
	int bookmarks;
	ds_time deadline;          /* 0: none */
	unsigned long long cursor; /* the last rv looked at */
	ds_time last_bookmark;
	char *buf; /* bytes ready to read */
	size_t len, off, cap;
	held_line *held; /* lines due later (a delay fault), in order */
	size_t nheld, capheld;
	int ended; /* the server ends it once buf and held are read */
	fake_watch *next;
};

typedef struct fault_ent {
	fake_fault f;
	char *op, *resource, *message;
	long seen;
} fault_ent;

typedef struct event_fault_ent {
	fake_event_fault f;
	char *resource;
	long seen;
} event_fault_ent;

struct fake_api {
	fake_options o;
	ds_time now;
	unsigned long long rv, uids;
	unsigned rand;
	json_t *store; /* resource -> {key: object}; stored objects are never changed in place */
	logent *log;   /* a ring of o.watch_window events */
	size_t log_start, log_len;
	unsigned long long compacted; /* events up to this rv are forgotten */
	fake_watch *watches;
	json_t *pages;   /* continue token -> {"rv", "items", "resource"} */
	json_t *calls;   /* "op", "op resource", "" -> count */
	json_t *bound;   /* pod uid -> when it was bound (ms) */
	json_t *tried;   /* pod uid -> the rv when the scheduler last failed to place it */
	json_t *broken;  /* node name -> true */
	json_t *missing; /* image -> true */
	fault_ent *faults;
	size_t nfaults;
	event_fault_ent *efaults;
	size_t nefaults;
	long fault_hits; /* call and event faults that hit (fake_fault_hits) */
	fake_observer observer;
	void *observer_data;
	int in_tick;
};

/* fakeapi.c */
const res_info *fake_res(const char *name);
const res_info *fake_res_by_kind(const char *api_version, const char *kind);
void fake_key(const res_info *r, const char *ns, const char *name, char *buf, size_t size);
const char *fake_meta_str(const json_t *obj, const char *key);
json_t *fake_meta(json_t *obj);
void fake_time_text(ds_time t, char *buf, size_t size);
/* Store obj (new reference taken) under key, with a new resourceVersion, and log the change. */
void fake_put(fake_api *api, const res_info *r, const char *key, json_t *obj, char type);
/* Remove the object under key (logged as DELETED). */
void fake_remove(fake_api *api, const res_info *r, const char *key);
json_t *fake_bucket(fake_api *api, const res_info *r);
/* A delete as the API does it, without faults (the garbage collector's, the kubelet's). */
int fake_delete_obj(fake_api *api, const res_info *r, const char *key, const json_t *options, char **out);

/* fakecluster.c: the scheduler, kubelet, garbage collector and disruption controller at api->now. */
void fake_cluster_tick(fake_api *api);
ds_time fake_cluster_next_due(const fake_api *api);
/* The PodDisruptionBudgets in ns whose selector matches the pod (new array). */
json_t *fake_pdbs_for(fake_api *api, const json_t *pod);
/* The disruption controller's status of a PDB now. */
json_t *fake_pdb_status(fake_api *api, const json_t *pdb);

/* fakepatch.c */
json_t *fake_merge_patch(const json_t *target, const json_t *patch);
/* Strategic merge (the merge keys of the core and apps types); NULL with why on a bad patch. */
json_t *fake_strategic_patch(const json_t *target, const json_t *patch, char *why, size_t size);
/* RFC 6902; NULL with why when an operation fails. */
json_t *fake_json_patch(const json_t *target, const json_t *ops, char *why, size_t size);
/* Selectors: 1 match, 0 not, -1 bad selector (why set). */
int fake_labels_match(const char *selector, const json_t *obj, char *why, size_t size);
int fake_fields_match(const char *selector, const json_t *obj, char *why, size_t size);

#endif
