package searchquery

// CompareSort orders hits by their sort values, for the merge round's specs.
var CompareSort = compareSort
