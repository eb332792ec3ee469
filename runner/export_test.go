package runner

// Spent is the known cost of a finished Run's transcripts as a Budget
// counts it (without a Budget, unreported costs count as 0).
func (r *Runner) Spent(results []Result) float64 {
	total := 0.0
	for _, res := range results {
		total += r.Budget.cost(res)
	}
	return total
}
