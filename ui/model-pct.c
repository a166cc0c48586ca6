/*
 * model-pct.c -- each task's %CPU: the share of engine ticks it ran over
 * the last few seconds.  A frame MODEL_HIST_GAP ticks or more after the
 * last sample takes one (model_pct_sample); each task line that comes
 * carries its history over from the task it replaces (model_pct_carry),
 * and model_pct computes the share when the task is shown, so a task a
 * delta frame leaves out is not touched.
 */
#include <string.h>

#include "model-int.h"
#include "model.h"

/*
 * A frame at tick: take a %cpu sample if it is MODEL_HIST_GAP ticks or
 * more after the last (or the first); time gone back (a new daemon, a
 * seek) drops every sample.
 */
void
model_pct_sample(struct model *m, long tick)
{
	if (m->nsamp > 0 && tick < m->stick[(m->nsamp - 1) % MODEL_HIST]) {
		m->hepoch++;
		m->nsamp = 0;
	}
	m->sampled = m->nsamp == 0 ||
	    tick - m->stick[(m->nsamp - 1) % MODEL_HIST] >= MODEL_HIST_GAP;
	if (m->sampled)
		m->stick[m->nsamp++ % MODEL_HIST] = tick;
}

/*
 * A task's line came in a frame at tick (model_pct_sample already called):
 * carry its %cpu history over from old (NULL: a new task) and record
 * its ran.  The samples old missed (frames that did not carry its line)
 * had old's ran: nothing changed.
 */
void
model_pct_carry(struct model *m, struct mtask *t, const struct mtask *old,
    long tick)
{
	long	last, q;

	/* Samples before this frame's (if it took one). */
	last = m->nsamp - (m->sampled ? 1 : 0);
	if (old == NULL || old->ran > t->ran) {
		/* New (or its ran went back): born in this frame. */
		memset(t->hran, 0, sizeof t->hran);
		t->hepoch = m->hepoch;
		t->btick = tick;
		t->bran = t->ran;
		t->bseq = t->hseq = last;
	} else {
		memcpy(t->hran, old->hran, sizeof t->hran);
		t->hseq = old->hseq;
		t->bseq = old->bseq;
		t->btick = old->btick;
		t->bran = old->bran;
		t->hepoch = old->hepoch;
		if (t->hepoch != m->hepoch) {
			/* Time went back: its history starts at sample 0. */
			t->hepoch = m->hepoch;
			t->bseq = t->hseq = 0;
			t->btick = m->stick[0];
			t->bran = old->ran;
		}
		q = t->hseq;
		if (q < last - MODEL_HIST)
			q = last - MODEL_HIST;
		for (; q < last; q++)
			t->hran[q % MODEL_HIST] = old->ran;
	}
	if (m->sampled)
		t->hran[(m->nsamp - 1) % MODEL_HIST] = t->ran;
	t->hseq = m->nsamp;
}

/*
 * A task's %cpu: its ran over ticks since its oldest sample kept (the
 * last MODEL_HIST samples, or the frame that first showed it), so it
 * covers the last few seconds of engine time; -1 before two samples.
 * Computed when shown: a task not in a frame is not touched.
 */
int
model_pct(const struct model *m, const struct mtask *t)
{
	long	o, bseq = t->bseq, hseq = t->hseq, tick, ran, dt;
	int	pct;

	if (t->hepoch != m->hepoch)
		bseq = hseq = 0;	/* unchanged since time went back */
	o = m->nsamp - MODEL_HIST;
	if (o < bseq)
		o = bseq;
	if (o < m->nsamp) {
		tick = m->stick[o % MODEL_HIST];
		ran = o < hseq ? t->hran[o % MODEL_HIST] : t->ran;
	} else {
		tick = t->btick;
		ran = t->bran;
	}
	dt = m->tick - tick;
	if (dt <= 0)
		return (-1);
	pct = (int)(((t->ran - ran) * 100 + dt / 2) / dt);
	if (pct > 100)
		pct = 100;
	if (pct < 0)
		pct = 0;
	return (pct);
}
