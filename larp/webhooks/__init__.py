"""Game-night events to a Discord channel or any webhook (issue 35): never lost, never in the narrator's way.

How an event travels:

1. **Written with what caused it.** The use case that records a ruling, an undo, a torpor, a Final
   Death or a new game session calls one of :mod:`larp.webhooks.outbox`'s ``announce_*`` functions
   (all of them go through :func:`larp.webhooks.outbox.emit`) inside its own transaction: one
   ``webhookevent`` row and a ``webhookdelivery`` row per webhook that wants it. Rolled back with
   it, committed with it; nothing touches the network.
2. **Sent after the commit** by the worker thread of ``larp serve`` (:mod:`larp.webhooks.worker`):
   per webhook the oldest delivery first, one at a time; each webhook apart, so a failing one
   delays only itself. At least once: a delivery is marked delivered only after its answer came,
   so the same event (same event id) is sent again only when an answer was lost.
3. **Shaped for the webhook**: its privacy level (:mod:`larp.webhooks.kinds`: the fields of every
   event at each level), then Discord's message format (:mod:`larp.webhooks.discord`) or the signed
   JSON body (:mod:`larp.webhooks.messages`).
4. **Posted safely** (:mod:`larp.webhooks.sending`): http(s) only, the host resolved and its address
   checked at every delivery and connected to as checked, no redirect followed, a timeout and
   bounded bodies.
"""
