/* kubectl drain's options and pod filters (kubectl pkg/drain/filters.go). */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "core/alloc.h"
#include "core/strbuf.h"
#include "ops/drain.h"

/* kubectl's text for an invalid --pod-selector (pkg/cmd/drain/drain.go Complete) */
#define POD_SELECTOR_INVALID "--pod-selector=<pod_selector> must be a valid label selector"

void dsi_pod_status_release(dsi_pod_status *st)
{
	dsi_free(st->owned);
	st->owned = NULL;
	st->message = NULL;
}

static void set_status(dsi_pod_status *st, int filter, int del, int reason, const char *message)
{
	st->filter = (uint8_t)filter;
	st->del = (uint8_t)del;
	st->reason = (uint8_t)reason;
	st->message = message;
	st->owned = NULL;
}

/* MakePodDeleteStatusOkay and friends (filters.go) */
#define OKAY(st, f) set_status((st), (f), 1, DSI_PDS_OKAY, NULL)
#define SKIP(st, f) set_status((st), (f), 0, DSI_PDS_SKIP, NULL)
#define WARN(st, f, del, msg) set_status((st), (f), (del), DSI_PDS_WARNING, (msg))
#define FAIL(st, f, msg) set_status((st), (f), 0, DSI_PDS_ERROR, (msg))

static int parse_kinds(dsi_drain_cfg *cfg, const char *text, ds_error *err)
{
	const char *s = text;
	size_t cap = 0;
	while (*s) {
		while (*s == ',' || isspace((unsigned char)*s))
			s++;
		if (!*s)
			break;
		const char *e = s;
		while (*e && *e != ',')
			e++;
		const char *end = e;
		while (end > s && isspace((unsigned char)end[-1]))
			end--;
		size_t n = (size_t)(end - s); /* a group/Kind: the option's check_kinds refused anything else */
		if (DSI_GROW(cfg->kinds, cap, cfg->nkinds + 1) < 0)
			return dsi_error_nomem(err);
		char *k = dsi_strndup(s, n);
		if (!k)
			return dsi_error_nomem(err);
		cfg->kinds[cfg->nkinds++] = k;
		s = e;
	}
	return 0;
}

int dsi_drain_cfg_init(dsi_drain_cfg *cfg, const dsi_cluster *c, const dsi_ops_cfg *cfgo, ds_error *err)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->c = c;
	cfg->o = cfgo;
	const dsi_ops_options *o = cfgo->ops;
	cfg->force = o->force;
	cfg->ignore_daemonsets = o->ignore_daemonsets;
	cfg->delete_emptydir_data = o->delete_emptydir_data;
	cfg->disable_eviction = o->disable_eviction;
	cfg->grace_period_seconds = o->grace_period_seconds;
	cfg->skip_wait_timeout_seconds = o->skip_wait_for_delete_timeout_seconds;
	cfg->eviction_gv = "policy/v1";
	dsi_atoms_init_overlay(&cfg->atoms, &c->atoms);
	if (o->pod_selector) {
		/* GetPodsForDeletion: labels.Parse(PodSelector); "" selects everything */
		dsi_rd rd;
		dsi_rd_init(&rd, err);
		size_t m = dsi_rd_push(&rd, "podSelector");
		int rc = dsi_selector_parse(&rd, &cfg->atoms, o->pod_selector, &cfg->pod_selector);
		dsi_rd_pop(&rd, m);
		if (rc < 0) {
			if (rc == DS_EVALUE) {
				char detail[DS_ERROR_MESSAGE_MAX];
				memcpy(detail, err->message, sizeof(detail));
				dsi_error_set(err, DS_EVALUE, "podSelector", "%s (%s)", POD_SELECTOR_INVALID, detail);
			}
			return rc;
		}
		cfg->has_pod_selector = 1;
	}
	if (o->daemonset_kinds)
		return parse_kinds(cfg, o->daemonset_kinds, err);
	return 0;
}

void dsi_drain_cfg_release(dsi_drain_cfg *cfg)
{
	if (cfg->has_pod_selector)
		dsi_selector_release(&cfg->atoms, &cfg->pod_selector);
	dsi_atoms_free(&cfg->atoms);
	for (size_t i = 0; i < cfg->nkinds; i++)
		dsi_free(cfg->kinds[i]);
	dsi_free(cfg->kinds);
	memset(cfg, 0, sizeof(*cfg));
}

/* Go: int(time.Now().Sub(t).Seconds()); Sub saturates at the int64 nanosecond range. */
static int64_t whole_seconds_since(ds_time now, ds_time t)
{
	int64_t ms;
	if (__builtin_sub_overflow(now, t, &ms))
		ms = now > t ? INT64_MAX : INT64_MIN;
	int64_t ns;
	if (__builtin_mul_overflow(ms, (int64_t)1000000, &ns))
		ns = ms > 0 ? INT64_MAX : INT64_MIN;
	int64_t sec = ns / 1000000000, nsec = ns % 1000000000;
	double secs = (double)sec + (double)nsec / 1e9; /* Duration.Seconds() */
	return (int64_t)secs;                           /* int() truncates toward zero */
}

/* shouldSkipPod / skipDeletedFilter (kubectl pkg/drain/filters.go) */
int dsi_skip_deleted_filter(const dsi_drain_cfg *cfg, const dsi_pod *p, ds_time now, dsi_pod_status *out)
{
	int64_t n = cfg->skip_wait_timeout_seconds;
	if (n > 0 && p->meta.has_deletion && whole_seconds_since(now, p->meta.deletion) > n)
		SKIP(out, DSI_FILTER_SKIP_DELETED);
	else
		OKAY(out, DSI_FILTER_SKIP_DELETED);
	return 0;
}

/* metav1.GetControllerOf: a controller reference is there when any of its fields is. */
static int has_controller(const dsi_meta *m)
{
	return m->controller.kind || m->controller.name || m->controller.uid || m->controller.api_version;
}

/* "apps/v1" + "DaemonSet" -> "apps/DaemonSet"; "v1" + "Foo" -> "/Foo" */
static void group_kind(const char *api, const char *kind, char *buf, size_t size)
{
	const char *slash = strchr(api, '/');
	int glen = slash ? (int)(slash - api) : 0;
	snprintf(buf, size, "%.*s/%s", glen, api, kind);
}

static int kind_opted_in(const dsi_drain_cfg *cfg, const char *gk)
{
	for (size_t i = 0; i < cfg->nkinds; i++)
		if (strcmp(cfg->kinds[i], gk) == 0)
			return 1;
	return 0;
}

/* The owner as the API would return it: an apps DaemonSet (any of its served
 * versions), an OpenKruise DaemonSet, or any other kind by group/Kind. */
static void find_owner(const dsi_drain_cfg *cfg, const dsi_pod *p, dsi_daemon_owner *owner)
{
	const dsi_cluster *c = cfg->c;
	const char *ns = dsi_cstr(c, p->meta.ns), *name = dsi_cstr(c, p->meta.controller.name);
	const char *gk = owner->group_kind, *slash = strchr(gk, '/');
	size_t glen = (size_t)(slash - gk);
	if (strcmp(slash + 1, "DaemonSet") == 0) {
		const dsi_daemonset *ds = dsi_cluster_daemonset(c, ns, name);
		int kruise = glen == 14 && strncmp(gk, "apps.kruise.io", 14) == 0;
		int apps = (glen == 4 && strncmp(gk, "apps", 4) == 0) ||
			   (glen == 10 && strncmp(gk, "extensions", 10) == 0);
		if (ds && ((kruise && ds->kruise) || (apps && !ds->kruise))) {
			owner->found = 1;
			owner->ds = ds;
			return;
		}
	}
	if (owner->opt_in && dsi_cluster_other(c, gk, ns, name))
		owner->found = 1;
}

/* NewNotFound's text (apimachinery pkg/api/errors): `<resource>.<group> "<name>" not found`.
 * For opted-in kinds the resource is the kind in lower case plus "s", the
 * usual plural of custom resources. */
static char *not_found_text(const dsi_drain_cfg *cfg, const dsi_pod *p, const dsi_daemon_owner *owner)
{
	const char *gk = owner->group_kind, *slash = strchr(gk, '/');
	dsi_strbuf b = DSI_STRBUF_INIT;
	for (const char *k = slash + 1; *k; k++)
		dsi_strbuf_putc(&b, (char)tolower((unsigned char)*k));
	dsi_strbuf_putc(&b, 's');
	if (slash > gk) {
		dsi_strbuf_putc(&b, '.');
		dsi_strbuf_append(&b, gk, (size_t)(slash - gk));
	}
	dsi_strbuf_printf(&b, " \"%s\" not found", dsi_cstr(cfg->c, p->meta.controller.name));
	if (b.oom) {
		dsi_strbuf_free(&b);
		return NULL;
	}
	return dsi_strbuf_detach(&b);
}

/* daemonSetFilter and isControllerRefDaemonSet (kubectl pkg/drain/filters.go):
 * only kind DaemonSet with apiVersion apps/v1 exactly (plus the opted-in
 * kinds); the DaemonSet is looked up by name in the pod's namespace, its uid
 * is not compared; a lookup failure comes before --ignore-daemonsets. */
int dsi_daemonset_filter(const dsi_drain_cfg *cfg, const dsi_pod *p, dsi_pod_status *out, dsi_daemon_owner *owner)
{
	const dsi_cluster *c = cfg->c;
	memset(owner, 0, sizeof(*owner));
	if (!has_controller(&p->meta)) {
		OKAY(out, DSI_FILTER_DAEMONSET);
		return 0;
	}
	const char *kind = dsi_cstr(c, p->meta.controller.kind), *api = dsi_cstr(c, p->meta.controller.api_version);
	group_kind(api, kind, owner->group_kind, sizeof(owner->group_kind));
	int exact = strcmp(kind, "DaemonSet") == 0 && strcmp(api, "apps/v1") == 0;
	if (!exact && !kind_opted_in(cfg, owner->group_kind)) {
		OKAY(out, DSI_FILTER_DAEMONSET);
		return 0;
	}
	owner->is_daemon = 1;
	owner->opt_in = !exact;
	find_owner(cfg, p, owner);
	if (dsi_pod_terminal(p)) { /* any finished pod can be removed */
		OKAY(out, DSI_FILTER_DAEMONSET);
		return 0;
	}
	if (!owner->found) {
		char *msg = not_found_text(cfg, p, owner);
		if (!msg)
			return -1;
		/* orphaned: deleted with --force (the warning is overwritten later), refused otherwise */
		if (cfg->force)
			WARN(out, DSI_FILTER_DAEMONSET, 1, msg);
		else
			FAIL(out, DSI_FILTER_DAEMONSET, msg);
		out->owned = msg;
		return 0;
	}
	if (!cfg->ignore_daemonsets)
		FAIL(out, DSI_FILTER_DAEMONSET, DSI_DRAIN_DAEMONSET_FATAL);
	else
		WARN(out, DSI_FILTER_DAEMONSET, 0, DSI_DRAIN_DAEMONSET_WARNING);
	return 0;
}

/* mirrorPodFilter: the annotation kubernetes.io/config.mirror, any value */
int dsi_mirror_pod_filter(const dsi_drain_cfg *cfg, const dsi_pod *p, dsi_pod_status *out)
{
	(void)cfg;
	if (p->is_mirror)
		SKIP(out, DSI_FILTER_MIRROR);
	else
		OKAY(out, DSI_FILTER_MIRROR);
	return 0;
}

/* localStorageFilter and hasLocalStorage: any volume with a non-null emptyDir */
int dsi_local_storage_filter(const dsi_drain_cfg *cfg, const dsi_pod *p, dsi_pod_status *out)
{
	if (!p->spec.has_emptydir || dsi_pod_terminal(p))
		OKAY(out, DSI_FILTER_LOCAL_STORAGE);
	else if (!cfg->delete_emptydir_data)
		FAIL(out, DSI_FILTER_LOCAL_STORAGE, DSI_DRAIN_LOCAL_STORAGE_FATAL);
	else /* upstream's TODO: this warning is dropped by the filters that follow */
		WARN(out, DSI_FILTER_LOCAL_STORAGE, 1, DSI_DRAIN_LOCAL_STORAGE_WARNING);
	return 0;
}

/* unreplicatedFilter: any controller reference, of any kind, is enough */
int dsi_unreplicated_filter(const dsi_drain_cfg *cfg, const dsi_pod *p, dsi_pod_status *out)
{
	if (dsi_pod_terminal(p) || has_controller(&p->meta))
		OKAY(out, DSI_FILTER_UNREPLICATED);
	else if (cfg->force)
		WARN(out, DSI_FILTER_UNREPLICATED, 1, DSI_DRAIN_UNMANAGED_WARNING);
	else
		FAIL(out, DSI_FILTER_UNREPLICATED, DSI_DRAIN_UNMANAGED_FATAL);
	return 0;
}

/* filterPods (kubectl pkg/drain/drain.go) with makeFilters' order */
int dsi_drain_filter_pod(const dsi_drain_cfg *cfg, const dsi_pod *p, ds_time now, dsi_pod_status *st,
			 dsi_daemon_owner *owner)
{
	dsi_daemon_owner scratch;
	if (!owner)
		owner = &scratch;
	memset(owner, 0, sizeof(*owner));
	memset(st, 0, sizeof(*st));
	for (size_t i = 0; i < 5 + cfg->nextra; i++) {
		dsi_pod_status_release(st);
		int rc = 0;
		switch (i) {
		case 0: rc = dsi_skip_deleted_filter(cfg, p, now, st); break;
		case 1: rc = dsi_daemonset_filter(cfg, p, st, owner); break;
		case 2: rc = dsi_mirror_pod_filter(cfg, p, st); break;
		case 3: rc = dsi_local_storage_filter(cfg, p, st); break;
		case 4: rc = dsi_unreplicated_filter(cfg, p, st); break;
		default:
			set_status(st, DSI_FILTER_ADDITIONAL, 1, DSI_PDS_OKAY, NULL);
			cfg->extra[i - 5](cfg, p, cfg->extra_ctx ? cfg->extra_ctx[i - 5] : NULL, st);
			st->filter = DSI_FILTER_ADDITIONAL;
			st->owned = NULL;
		}
		if (rc < 0)
			return rc;
		if (!st->del) /* short-circuit: the pod is filtered out */
			break;
	}
	return 0;
}
