/* ResourceClaim, DeviceClass and ResourceSlice (k8s.io/api resource/v1 types.go) as the
 * DynamicResources subset reads them, and a pod's claims (k8s.io/api core/v1 PodResourceClaim,
 * PodResourceClaimStatus). */
#include "model/resourceclaim.h"

#include <string.h>

#include "core/alloc.h"

int dsi_dra_classify(dsi_rd *rd, const char *kind, const char *api, dsi_dra_kind *out)
{
	*out = 0;
	if (!api || strncmp(api, "resource.k8s.io/", 16) != 0)
		return 0;
	dsi_dra_kind k = strcmp(kind, "ResourceClaim") == 0   ? DSI_DRA_CLAIM
			 : strcmp(kind, "DeviceClass") == 0   ? DSI_DRA_CLASS
			 : strcmp(kind, "ResourceSlice") == 0 ? DSI_DRA_SLICE
							      : 0;
	if (!k)
		return 0;
	const char *v = api + 16;
	if (strcmp(v, "v1") != 0 && strcmp(v, "v1beta2") != 0)
		return dsi_rd_fail(rd, "apiVersion", DS_EUNSUPPORTED,
				   "%s in %s: expected resource.k8s.io/v1 or resource.k8s.io/v1beta2 (this version "
				   "lays requests and devices out differently; read it as v1 from the API server)",
				   kind, api);
	*out = k;
	return 0;
}

/* ---- selectors ---- */

static const char *skip_space(const char *s)
{
	while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
		s++;
	return s;
}

/* The driver name of the exact form `device.driver == "name"` (or 'name'), malloc'ed; NULL when the
 * expression has another form (*nomem on allocation failure). */
static char *driver_equality(const char *e, int *nomem)
{
	const char *p = skip_space(e);
	if (strncmp(p, "device.driver", 13) != 0)
		return NULL;
	p = skip_space(p + 13);
	if (strncmp(p, "==", 2) != 0)
		return NULL;
	p = skip_space(p + 2);
	char q = *p;
	if (q != '"' && q != '\'')
		return NULL;
	const char *start = ++p;
	while (*p && *p != q && *p != '\\' && *p != '\n')
		p++;
	if (*p != q)
		return NULL;
	size_t n = (size_t)(p - start);
	if (*skip_space(p + 1))
		return NULL;
	char *out = dsi_malloc(n + 1);
	if (!out) {
		*nomem = 1;
		return NULL;
	}
	memcpy(out, start, n);
	out[n] = '\0';
	return out;
}

static const char *const cel_beyond = "a CEL selector other than device.driver == \"name\"";

/* selectors ([]DeviceSelector) of obj: each {cel: {expression}}. *beyond set for what the subset does
 * not evaluate. */
static int read_selectors(dsi_rd *rd, const json_t *obj, dsi_dra_selectors *out, const char **beyond)
{
	json_t *arr;
	int rc = dsi_rd_array(rd, obj, "selectors", &arr);
	if (rc < 0 || !arr)
		return rc;
	size_t m = dsi_rd_push(rd, "selectors"), i;
	json_t *sel;
	json_array_foreach(arr, i, sel)
	{
		size_t m2 = dsi_rd_push_index(rd, i);
		json_t *cel;
		const char *expr = NULL;
		if ((rc = dsi_rd_expect_object(rd, sel)) < 0 || (rc = dsi_rd_object(rd, sel, "cel", &cel)) < 0) {
			dsi_rd_pop(rd, m2);
			break;
		}
		if (cel) {
			size_t m3 = dsi_rd_push(rd, "cel");
			rc = dsi_rd_string(rd, cel, "expression", &expr);
			dsi_rd_pop(rd, m3);
		}
		dsi_rd_pop(rd, m2);
		if (rc < 0)
			break;
		if (!expr) {
			/* validateDeviceRequest: "CEL expression empty (unsupported selector type?)" */
			*beyond = "a selector without a CEL expression";
			continue;
		}
		int nomem = 0;
		char *d = driver_equality(expr, &nomem);
		if (nomem) {
			rc = dsi_error_nomem(rd->err);
			break;
		}
		if (!d) {
			*beyond = cel_beyond;
			continue;
		}
		if (!out->driver)
			out->driver = d;
		else {
			if (strcmp(out->driver, d) != 0)
				out->nothing = 1;
			dsi_free(d);
		}
	}
	dsi_rd_pop(rd, m);
	return rc;
}

/* A required string member: DS_EMISSING when absent (lenient: ""). */
static int need_string(dsi_rd *rd, const json_t *obj, const char *key, const char **out)
{
	int rc = dsi_rd_string(rd, obj, key, out);
	if (rc < 0)
		return rc;
	if (!*out) {
		if (!rd->lenient)
			return dsi_rd_fail(rd, key, DS_EMISSING, "required value: expected a string");
		*out = "";
	}
	return 0;
}

/* Whether member key of obj is a non-empty array or object (a wrong type is DS_ETYPE). */
static int nonempty(dsi_rd *rd, const json_t *obj, const char *key, int *out)
{
	*out = 0;
	json_t *v = json_object_get(obj, key);
	if (!v || json_is_null(v))
		return 0;
	if (json_is_array(v))
		*out = json_array_size(v) > 0;
	else if (json_is_object(v))
		*out = json_object_size(v) > 0;
	else
		return dsi_rd_fail(rd, key, DS_ETYPE, "expected an array or an object, got %s", dsi_json_type_name(v));
	return 0;
}

/* ---- ResourceClaim ---- */

static int read_exactly(dsi_rd *rd, const json_t *ex, dsi_dra_request *r)
{
	int rc, b, present, any;
	const char *mode = NULL, *cls = NULL;
	if ((rc = dsi_rd_string(rd, ex, "deviceClassName", &cls)) < 0 ||
	    (rc = dsi_rd_string(rd, ex, "allocationMode", &mode)) < 0 ||
	    (rc = dsi_rd_int64(rd, ex, "count", &r->count, &present)) < 0)
		return rc;
	r->class_name = cls ? cls : "";
	if (!present)
		r->count = 1; /* SetDefaults_ExactDeviceRequest: count 1 for ExactCount */
	if (!mode || !*mode || strcmp(mode, "ExactCount") == 0)
		r->all = 0;
	else if (strcmp(mode, "All") == 0)
		r->all = 1;
	else if (!rd->lenient)
		return dsi_rd_fail(rd, "allocationMode", DS_EVALUE,
				   "unsupported value \"%s\": expected ExactCount or All", mode);
	else
		r->beyond = "an unknown allocationMode";
	if ((rc = dsi_rd_bool(rd, ex, "adminAccess", &b, NULL)) < 0)
		return rc;
	if (b)
		r->beyond = "adminAccess";
	if ((rc = nonempty(rd, ex, "capacity", &any)) < 0)
		return rc;
	if (any)
		r->beyond = "capacity requests (consumable capacity)";
	return read_selectors(rd, ex, &r->sel, &r->beyond);
}

static int read_first_available(dsi_rd *rd, const json_t *arr, dsi_dra_request *r)
{
	size_t n = json_array_size(arr), i;
	r->sub_names = dsi_calloc(n, sizeof(char *));
	r->sub_classes = dsi_calloc(n, sizeof(char *));
	if (!r->sub_names || !r->sub_classes)
		return dsi_error_nomem(rd->err);
	r->beyond = "firstAvailable (a prioritized list)";
	json_t *sub;
	int rc = 0;
	json_array_foreach(arr, i, sub)
	{
		size_t m = dsi_rd_push_index(rd, i);
		const char *name = NULL, *cls = NULL;
		if ((rc = dsi_rd_expect_object(rd, sub)) == 0 && (rc = need_string(rd, sub, "name", &name)) == 0)
			rc = dsi_rd_string(rd, sub, "deviceClassName", &cls);
		dsi_rd_pop(rd, m);
		if (rc < 0)
			return rc;
		r->sub_names[i] = name;
		r->sub_classes[i] = cls ? cls : "";
		r->nsub++;
	}
	return 0;
}

static int read_request(dsi_rd *rd, const json_t *req, dsi_dra_request *r)
{
	int rc;
	json_t *ex, *fa;
	if ((rc = dsi_rd_expect_object(rd, req)) < 0 || (rc = need_string(rd, req, "name", &r->name)) < 0 ||
	    (rc = dsi_rd_object(rd, req, "exactly", &ex)) < 0 ||
	    (rc = dsi_rd_array(rd, req, "firstAvailable", &fa)) < 0)
		return rc;
	if (ex) {
		r->type = DSI_DRA_REQ_EXACT;
		size_t m = dsi_rd_push(rd, "exactly");
		rc = read_exactly(rd, ex, r);
		dsi_rd_pop(rd, m);
	} else if (fa && json_array_size(fa)) {
		r->type = DSI_DRA_REQ_FIRST_AVAILABLE;
		r->class_name = "";
		size_t m = dsi_rd_push(rd, "firstAvailable");
		rc = read_first_available(rd, fa, r);
		dsi_rd_pop(rd, m);
	} else {
		r->type = DSI_DRA_REQ_UNKNOWN;
		r->class_name = "";
		r->beyond = "a request of an unknown type";
	}
	return rc;
}

static int read_results(dsi_rd *rd, const json_t *devices, dsi_resource_claim *c)
{
	json_t *arr;
	int rc = dsi_rd_array(rd, devices, "results", &arr);
	if (rc < 0 || !arr || !json_array_size(arr))
		return rc;
	if (!(c->allocated_devices = dsi_calloc(json_array_size(arr), sizeof(dsi_dra_device_ref))))
		return dsi_error_nomem(rd->err);
	size_t m = dsi_rd_push(rd, "results"), i;
	json_t *res;
	json_array_foreach(arr, i, res)
	{
		size_t m2 = dsi_rd_push_index(rd, i);
		dsi_dra_device_ref d = {0};
		int admin = 0, binding = 0;
		if ((rc = dsi_rd_expect_object(rd, res)) == 0 &&
		    (rc = need_string(rd, res, "driver", &d.driver)) == 0 &&
		    (rc = need_string(rd, res, "pool", &d.pool)) == 0 &&
		    (rc = need_string(rd, res, "device", &d.device)) == 0 &&
		    (rc = dsi_rd_bool(rd, res, "adminAccess", &admin, NULL)) == 0)
			rc = nonempty(rd, res, "bindingConditions", &binding);
		dsi_rd_pop(rd, m2);
		if (rc < 0)
			break;
		if (binding)
			c->binding_beyond = "an allocation with binding conditions";
		/* ListAllAllocatedDevices (dra_manager.go): adminAccess results do not count as in use */
		if (!admin)
			c->allocated_devices[c->nallocated++] = d;
	}
	dsi_rd_pop(rd, m);
	return rc;
}

/* Whether a node selector read from an object has an invalid term (NewNodeSelector's error). */
static int selector_invalid(const dsi_node_selector *s)
{
	for (uint32_t i = 0; i < s->n; i++)
		if (s->terms[i].invalid)
			return 1;
	return 0;
}

static int read_claim(dsi_rd *rd, dsi_atoms *atoms, const json_t *obj, dsi_resource_claim *c)
{
	json_t *spec, *devices = NULL, *reqs = NULL, *status, *alloc = NULL;
	int rc, any;
	if ((rc = dsi_rd_object(rd, obj, "spec", &spec)) < 0 || (rc = dsi_rd_object(rd, obj, "status", &status)) < 0)
		return rc;
	size_t m = dsi_rd_push(rd, "spec");
	if (spec && (rc = dsi_rd_object(rd, spec, "devices", &devices)) == 0 && devices) {
		size_t m2 = dsi_rd_push(rd, "devices");
		if ((rc = dsi_rd_array(rd, devices, "requests", &reqs)) == 0 &&
		    (rc = nonempty(rd, devices, "constraints", &any)) == 0 && any)
			c->beyond = "constraints";
		if (rc == 0 && reqs && json_array_size(reqs)) {
			if (!(c->reqs = dsi_calloc(json_array_size(reqs), sizeof(dsi_dra_request))))
				rc = dsi_error_nomem(rd->err);
			size_t m3 = dsi_rd_push(rd, "requests"), i;
			json_t *req;
			json_array_foreach(reqs, i, req)
			{
				if (rc < 0)
					break;
				size_t m4 = dsi_rd_push_index(rd, i);
				rc = read_request(rd, req, &c->reqs[c->nreqs++]);
				dsi_rd_pop(rd, m4);
			}
			dsi_rd_pop(rd, m3);
		}
		dsi_rd_pop(rd, m2);
	}
	dsi_rd_pop(rd, m);
	if (rc < 0 || !status)
		return rc;
	m = dsi_rd_push(rd, "status");
	if ((rc = dsi_rd_object(rd, status, "allocation", &alloc)) == 0 && alloc) {
		c->allocated = 1;
		size_t m2 = dsi_rd_push(rd, "allocation");
		json_t *adev, *ns;
		if ((rc = dsi_rd_object(rd, alloc, "devices", &adev)) == 0 && adev) {
			size_t m3 = dsi_rd_push(rd, "devices");
			rc = read_results(rd, adev, c);
			dsi_rd_pop(rd, m3);
		}
		if (rc == 0 && (rc = dsi_rd_object(rd, alloc, "nodeSelector", &ns)) == 0 && ns) {
			size_t m3 = dsi_rd_push(rd, "nodeSelector");
			rc = dsi_node_selector_read_value(rd, atoms, ns, &c->selector);
			dsi_rd_pop(rd, m3);
			if (rc == 0) {
				c->has_selector = 1;
				if (selector_invalid(&c->selector))
					c->selector_beyond = "an invalid allocation node selector";
			}
		}
		dsi_rd_pop(rd, m2);
	}
	dsi_rd_pop(rd, m);
	return rc;
}

/* ---- DeviceClass ---- */

static int read_class(dsi_rd *rd, const json_t *obj, dsi_device_class *c)
{
	json_t *spec;
	int rc = dsi_rd_object(rd, obj, "spec", &spec);
	if (rc < 0 || !spec)
		return rc;
	size_t m = dsi_rd_push(rd, "spec");
	if ((rc = dsi_rd_string(rd, spec, "extendedResourceName", &c->extended_resource)) == 0)
		rc = read_selectors(rd, spec, &c->sel, &c->beyond);
	dsi_rd_pop(rd, m);
	return rc;
}

/* ---- ResourceSlice ---- */

static int read_devices(dsi_rd *rd, const json_t *spec, dsi_resource_slice *s)
{
	json_t *arr;
	int rc = dsi_rd_array(rd, spec, "devices", &arr);
	if (rc < 0 || !arr || !json_array_size(arr))
		return rc;
	if (!(s->devices = dsi_calloc(json_array_size(arr), sizeof(char *))))
		return dsi_error_nomem(rd->err);
	size_t m = dsi_rd_push(rd, "devices"), i;
	json_t *d;
	json_array_foreach(arr, i, d)
	{
		size_t m2 = dsi_rd_push_index(rd, i);
		const char *name = NULL;
		int counters = 0, taints = 0, binding = 0, binds = 0, multi = 0;
		if ((rc = dsi_rd_expect_object(rd, d)) == 0 && (rc = need_string(rd, d, "name", &name)) == 0 &&
		    (rc = nonempty(rd, d, "consumesCounters", &counters)) == 0 &&
		    (rc = nonempty(rd, d, "taints", &taints)) == 0 &&
		    (rc = nonempty(rd, d, "bindingConditions", &binding)) == 0 &&
		    (rc = dsi_rd_bool(rd, d, "bindsToNode", &binds, NULL)) == 0)
			rc = dsi_rd_bool(rd, d, "allowMultipleAllocations", &multi, NULL);
		dsi_rd_pop(rd, m2);
		if (rc < 0)
			break;
		if (counters)
			s->beyond = "a device that consumes counters (partitionable devices)";
		else if (taints)
			s->beyond = "a device with taints";
		else if (binding || binds)
			s->beyond = "a device with binding conditions";
		else if (multi)
			s->beyond = "a device that allows multiple allocations";
		s->devices[s->ndevices++] = name;
	}
	dsi_rd_pop(rd, m);
	return rc;
}

static int read_slice(dsi_rd *rd, dsi_atoms *atoms, const json_t *obj, dsi_resource_slice *s)
{
	json_t *spec, *pool = NULL, *ns = NULL;
	int rc = dsi_rd_object(rd, obj, "spec", &spec), b = 0, any = 0;
	if (rc < 0)
		return rc;
	if (!spec) {
		if (!rd->lenient)
			return dsi_rd_fail(rd, "spec", DS_EMISSING, "required value: expected a ResourceSliceSpec");
		s->driver = s->pool = "";
		return 0;
	}
	size_t m = dsi_rd_push(rd, "spec");
	if ((rc = need_string(rd, spec, "driver", &s->driver)) < 0 || (rc = dsi_rd_object(rd, spec, "pool", &pool)) < 0)
		goto done;
	if (!pool && !rd->lenient) {
		rc = dsi_rd_fail(rd, "pool", DS_EMISSING, "required value: expected a ResourcePool");
		goto done;
	}
	s->pool = "";
	if (pool) {
		size_t m2 = dsi_rd_push(rd, "pool");
		if ((rc = need_string(rd, pool, "name", &s->pool)) == 0 &&
		    (rc = dsi_rd_int64(rd, pool, "generation", &s->generation, NULL)) == 0)
			rc = dsi_rd_int64(rd, pool, "resourceSliceCount", &s->slice_count, NULL);
		dsi_rd_pop(rd, m2);
		if (rc < 0)
			goto done;
	}
	const char *nn = NULL;
	if ((rc = dsi_rd_string(rd, spec, "nodeName", &nn)) < 0 ||
	    (rc = dsi_rd_bool(rd, spec, "allNodes", &b, NULL)) < 0)
		goto done;
	s->node_name = nn && *nn ? nn : NULL;
	s->all_nodes = (uint8_t)b;
	if ((rc = dsi_rd_object(rd, spec, "nodeSelector", &ns)) < 0)
		goto done;
	if (ns) {
		size_t m2 = dsi_rd_push(rd, "nodeSelector");
		rc = dsi_node_selector_read_value(rd, atoms, ns, &s->selector);
		dsi_rd_pop(rd, m2);
		if (rc < 0)
			goto done;
		s->has_selector = 1;
		if (selector_invalid(&s->selector))
			s->selector_beyond = "an invalid slice node selector";
	}
	if ((rc = dsi_rd_bool(rd, spec, "perDeviceNodeSelection", &b, NULL)) < 0 ||
	    (rc = nonempty(rd, spec, "sharedCounters", &any)) < 0 || (rc = read_devices(rd, spec, s)) < 0)
		goto done;
	if (b)
		s->beyond = "perDeviceNodeSelection";
	else if (any)
		s->beyond = "sharedCounters (partitionable devices)";
done:
	dsi_rd_pop(rd, m);
	return rc;
}

int dsi_dra_read(dsi_rd *rd, dsi_atoms *atoms, dsi_dra_kind k, json_t *obj, dsi_dra_obj **out)
{
	dsi_dra_obj *o = dsi_calloc(1, sizeof(*o));
	*out = NULL;
	if (!o)
		return dsi_error_nomem(rd->err);
	o->kind = k;
	o->obj = json_incref(obj);
	int rc;
	switch (k) {
	case DSI_DRA_CLAIM: rc = read_claim(rd, atoms, obj, &o->u.claim); break;
	case DSI_DRA_CLASS: rc = read_class(rd, obj, &o->u.cls); break;
	default: rc = read_slice(rd, atoms, obj, &o->u.slice); break;
	}
	if (rc < 0) {
		dsi_dra_free(atoms, o);
		return rc;
	}
	*out = o;
	return 0;
}

void dsi_dra_free(dsi_atoms *atoms, dsi_dra_obj *o)
{
	if (!o)
		return;
	switch (o->kind) {
	case DSI_DRA_CLAIM: {
		dsi_resource_claim *c = &o->u.claim;
		for (uint32_t i = 0; i < c->nreqs; i++) {
			dsi_free(c->reqs[i].sel.driver);
			dsi_free(c->reqs[i].sub_names);
			dsi_free(c->reqs[i].sub_classes);
		}
		dsi_free(c->reqs);
		dsi_free(c->allocated_devices);
		dsi_node_selector_release(atoms, &c->selector);
		break;
	}
	case DSI_DRA_CLASS: dsi_free(o->u.cls.sel.driver); break;
	default:
		dsi_free(o->u.slice.devices);
		dsi_node_selector_release(atoms, &o->u.slice.selector);
		break;
	}
	json_decref(o->obj);
	dsi_free(o);
}

/* ---- a pod's claims ---- */

/* One string member that is a pointer in Go (*string): *has says whether it was set. */
static int ptr_string(dsi_rd *rd, dsi_atoms *atoms, const json_t *obj, const char *key, dsi_atom *out, uint8_t *has)
{
	const char *s;
	*out = DSI_ATOM_NONE;
	*has = 0;
	int rc = dsi_rd_string(rd, obj, key, &s);
	if (rc < 0 || !s)
		return rc;
	*has = 1;
	if (!*s)
		return 0;
	if ((*out = dsi_atom_intern_cstr(atoms, s)) == DSI_ATOM_ERROR) {
		*out = DSI_ATOM_NONE;
		return dsi_error_nomem(rd->err);
	}
	return 0;
}

int dsi_pod_claims_read(dsi_rd *rd, dsi_atoms *atoms, const json_t *spec, dsi_pod_claims *out)
{
	json_t *arr;
	int rc = dsi_rd_array(rd, spec, "resourceClaims", &arr);
	if (rc < 0 || !arr || !json_array_size(arr))
		return rc;
	if (!(out->v = dsi_calloc(json_array_size(arr), sizeof(dsi_pod_claim))))
		return dsi_error_nomem(rd->err);
	size_t m = dsi_rd_push(rd, "resourceClaims"), i;
	json_t *pc;
	json_array_foreach(arr, i, pc)
	{
		size_t m2 = dsi_rd_push_index(rd, i);
		dsi_pod_claim *c = &out->v[out->n++];
		uint8_t has_name;
		if ((rc = dsi_rd_expect_object(rd, pc)) == 0 &&
		    (rc = ptr_string(rd, atoms, pc, "name", &c->name, &has_name)) == 0 &&
		    (rc = ptr_string(rd, atoms, pc, "resourceClaimName", &c->claim_name, &c->has_claim_name)) == 0)
			rc = ptr_string(rd, atoms, pc, "resourceClaimTemplateName", &c->template_name,
					&c->has_template);
		dsi_rd_pop(rd, m2);
		if (rc < 0)
			break;
	}
	dsi_rd_pop(rd, m);
	return rc;
}

int dsi_pod_claim_statuses_read(dsi_rd *rd, dsi_atoms *atoms, const json_t *pod, dsi_pod_claims *out)
{
	json_t *status, *arr = NULL;
	out->has_status = 1;
	int rc = dsi_rd_object(rd, pod, "status", &status);
	if (rc < 0 || !status)
		return rc;
	size_t m = dsi_rd_push(rd, "status");
	if ((rc = dsi_rd_array(rd, status, "resourceClaimStatuses", &arr)) < 0 || !arr || !json_array_size(arr))
		goto done;
	if (!(out->status = dsi_calloc(json_array_size(arr), sizeof(dsi_pod_claim_status)))) {
		rc = dsi_error_nomem(rd->err);
		goto done;
	}
	size_t m2 = dsi_rd_push(rd, "resourceClaimStatuses"), i;
	json_t *st;
	json_array_foreach(arr, i, st)
	{
		size_t m3 = dsi_rd_push_index(rd, i);
		dsi_pod_claim_status *s = &out->status[out->nstatus++];
		uint8_t has_name;
		if ((rc = dsi_rd_expect_object(rd, st)) == 0 &&
		    (rc = ptr_string(rd, atoms, st, "name", &s->name, &has_name)) == 0)
			rc = ptr_string(rd, atoms, st, "resourceClaimName", &s->claim_name, &s->has_claim_name);
		dsi_rd_pop(rd, m3);
		if (rc < 0)
			break;
	}
	dsi_rd_pop(rd, m2);
done:
	dsi_rd_pop(rd, m);
	return rc;
}

void dsi_pod_claims_release(dsi_atoms *atoms, dsi_pod_claims *c)
{
	for (uint32_t i = 0; i < c->n; i++) {
		dsi_atom_unref(atoms, c->v[i].name);
		dsi_atom_unref(atoms, c->v[i].claim_name);
		dsi_atom_unref(atoms, c->v[i].template_name);
	}
	for (uint32_t i = 0; i < c->nstatus; i++) {
		dsi_atom_unref(atoms, c->status[i].name);
		dsi_atom_unref(atoms, c->status[i].claim_name);
	}
	dsi_free(c->v);
	dsi_free(c->status);
	memset(c, 0, sizeof(*c));
}

int dsi_pod_claims_copy_x(dsi_atoms *to, const dsi_atoms *from, const dsi_pod_claims *src, dsi_pod_claims *dst)
{
	memset(dst, 0, sizeof(*dst));
	dst->has_status = src->has_status;
	if ((src->n && !(dst->v = dsi_calloc(src->n, sizeof(dsi_pod_claim)))) ||
	    (src->nstatus && !(dst->status = dsi_calloc(src->nstatus, sizeof(dsi_pod_claim_status))))) {
		dsi_free(dst->v);
		dst->v = NULL;
		return -1;
	}
	int failed = 0;
	for (uint32_t i = 0; i < src->n; i++) {
		dsi_pod_claim *d = &dst->v[dst->n++];
		*d = src->v[i];
		d->name = dsi_atom_carry_or_none(to, from, src->v[i].name, &failed);
		d->claim_name = dsi_atom_carry_or_none(to, from, src->v[i].claim_name, &failed);
		d->template_name = dsi_atom_carry_or_none(to, from, src->v[i].template_name, &failed);
	}
	for (uint32_t i = 0; i < src->nstatus; i++) {
		dsi_pod_claim_status *d = &dst->status[dst->nstatus++];
		*d = src->status[i];
		d->name = dsi_atom_carry_or_none(to, from, src->status[i].name, &failed);
		d->claim_name = dsi_atom_carry_or_none(to, from, src->status[i].claim_name, &failed);
	}
	if (failed) {
		dsi_pod_claims_release(to, dst);
		return -1;
	}
	return 0;
}
