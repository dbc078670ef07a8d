package engine

// TuneGCInContainer is TuneGC and ResidentBudget as in a container limited to total
// bytes: the benchmarks measure the engine as the Helm chart runs it, and a test cannot
// create a cgroup.
func TuneGCInContainer(total uint64) (limit, budget int64, err error) {
	memory := func() (uint64, error) { return total, nil }
	if limit, err = tuneGC(memory); err != nil {
		return limit, 0, err
	}
	budget, _ = residentBudget(memory)
	return limit, budget, nil
}
