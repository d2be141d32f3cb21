#include "controller/expectations.h"

/* ControllerExpectations.SetExpectations (controller_utils.go) */
void dsi_exp_set(dsi_dsstate *s, int64_t add, int64_t del, ds_time now)
{
	s->exp_set = 1;
	s->exp_add = add;
	s->exp_del = del;
	s->exp_time = now;
}

/* ControllerExpectations.LowerExpectations (controller_utils.go) */
void dsi_exp_lower(dsi_dsstate *s, int64_t add, int64_t del)
{
	if (!s || !s->exp_set)
		return;
	s->exp_add -= add;
	s->exp_del -= del;
}

/* ControllerExpectations.DeleteExpectations (controller_utils.go) */
void dsi_exp_delete(dsi_dsstate *s)
{
	if (!s)
		return;
	s->exp_set = 0;
	s->exp_add = s->exp_del = 0;
	s->exp_time = 0;
}

/* ControlleeExpectations.Fulfilled (controller_utils.go) */
int dsi_exp_fulfilled(const dsi_dsstate *s) { return s->exp_add <= 0 && s->exp_del <= 0; }

/* ControlleeExpectations.isExpired (controller_utils.go): strictly more than the timeout */
int dsi_exp_expired(const dsi_dsstate *s, ds_time now, int64_t timeout_ms) { return now - s->exp_time > timeout_ms; }

/* ControllerExpectations.SatisfiedExpectations (controller_utils.go) */
int dsi_exp_satisfied(const dsi_dsstate *s, ds_time now, int64_t timeout_ms)
{
	if (!s || !s->exp_set)
		return 1; /* never recorded: sync */
	return dsi_exp_fulfilled(s) || dsi_exp_expired(s, now, timeout_ms);
}
