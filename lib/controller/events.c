#include <stdio.h>
#include <string.h>

#include "controller/sync.h"
#include "controller/transport.h"
#include "core/time.h"

/* recorder.generateEvent / makeEvent (client-go tools/record/event.go): named
 * "<object>.<unix nanoseconds in hex>"; our sequence keeps events of one
 * millisecond apart, since time is the caller's and has millisecond precision. */
int dsi_record_event(dsi_sync *s, const char *type, const char *reason, const char *message)
{
	dsi_controller *c = s->c;
	if (json_array_append_new(s->events,
				  json_pack("{s:s, s:s, s:s}", "type", type, "reason", reason, "message", message)))
		return dsi_error_nomem(s->err);
	if (!c->tp.record_event)
		return 0;
	char when[40], name[600];
	dsi_time_format(s->now - s->now % 1000, when, sizeof(when));
	unsigned long long nanos = (unsigned long long)s->now * 1000000ull + (c->event_seq++ % 1000000ull);
	snprintf(name, sizeof(name), "%s.%llx", s->name, nanos);
	const char *rv = dsi_cstr(c->cluster, s->ds->meta.resource_version);
	const char *api = s->ds->kruise ? json_string_value(json_object_get(s->ds->obj, "apiVersion")) : "apps/v1";
	json_t *ev = json_pack("{s:s, s:s, s:{s:s, s:s}, s:{s:s, s:s, s:s, s:s, s:s, s:s}, s:s, s:s, s:s, s:{s:s}, "
			       "s:s, s:s, s:i, s:s, s:s}",
			       "apiVersion", "v1", "kind", "Event", "metadata", "name", name, "namespace", s->ns,
			       "involvedObject", "kind", "DaemonSet", "namespace", s->ns, "name", s->name, "uid",
			       s->uid, "apiVersion", api ? api : "apps/v1", "resourceVersion", rv, "reason", reason,
			       "message", message, "type", type, "source", "component", c->component, "firstTimestamp",
			       when, "lastTimestamp", when, "count", 1, "reportingComponent", c->component,
			       "reportingInstance", "");
	if (!ev)
		return dsi_error_nomem(s->err);
	dsi_call call;
	int rc = dsi_tp_event(c, s->ns, ev, &call, s->err);
	json_decref(ev);
	if (rc < 0)
		return rc;
	dsi_call_release(&call); /* a lost event changes nothing */
	return 0;
}

void dsi_go_time_string(ds_time t, char *buf, size_t size)
{
	char iso[40];
	dsi_time_format(t, iso, sizeof(iso)); /* 2006-01-02T15:04:05Z or ...05.123Z */
	size_t n = strlen(iso);
	if (n && iso[n - 1] == 'Z')
		iso[--n] = '\0';
	char *tpos = strchr(iso, 'T');
	if (tpos)
		*tpos = ' ';
	/* Go trims trailing zeros of the fraction */
	char *dot = strchr(iso, '.');
	if (dot) {
		char *e = iso + strlen(iso);
		while (e > dot + 1 && e[-1] == '0')
			*--e = '\0';
		if (e == dot + 1)
			*dot = '\0';
	}
	snprintf(buf, size, "%s +0000 UTC", iso);
}
