/**
 * The CCS of Figure 3 of "AI Agents Need Memory Control Over More Context" (the ACC paper), verbatim (the IT-ops
 * session's first turn).
 */
export const FIGURE_3 = `episodic_trace:
observed(502_spikes after(enable(http2)))
logged(nginx_error upstream_closed_early)
constraint(no_restart during(business_hours))

semantic_gist:
mitigate(502) & diagnose(upstream_instability)

focal_entities:
host(vm_ubuntu22_04) service(nginx) service(node_upstream) feature(http2) signal(error_502)

relational_map:
timing(502_spikes after(http2_enable))
possible(upstream_timeout 502)
possible(upstream_connection_close 502)

goal_orientation:
reduce(502_rate within(10min)) & preserve(service_availability)

constraints:
no_restart(nginx) reload_allowed(nginx) safe_change(minimal) avoid(speculation)

predictive_cue:
check(upstream_latency) check(node_memory_growth) validate(nginx_timeouts)

uncertainty_signal:
level(medium) gaps(root_cause not_confirmed)

retrieved_artifacts:
nginx_error_snippet(upstream_prematurely_closed)
recent_change(enable_http2) constraint_note(no_restart)
`;
