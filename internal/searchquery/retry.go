package searchquery

// NextDrop is matchingStrategy all's retry, decided in one place for searches and facet
// value searches: an answer that matched nothing, to a plan that may drop a word (its
// Retry), is searched again without one more word from the end of q. It returns the
// words to drop next and whether to search again.
func NextDrop(retry, matched bool, drop int) (int, bool) {
	if !retry || matched {
		return drop, false
	}
	return drop + 1, true
}
