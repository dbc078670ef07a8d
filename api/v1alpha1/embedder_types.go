package v1alpha1

// EmbedderSource is where an embedder's vectors come from.
// +kubebuilder:validation:Enum=userProvided
type EmbedderSource string

// EmbedderUserProvided: records carry their vectors in _vectors.<name>, searches their
// query vector; Aisle checks the dimensions and computes nothing.
const EmbedderUserProvided EmbedderSource = "userProvided"

// VectorSimilarity is how two vectors of an embedder are compared.
// +kubebuilder:validation:Enum=cosine
type VectorSimilarity string

// SimilarityCosine is the cosine of the angle between two vectors (the default).
const SimilarityCosine VectorSimilarity = "cosine"

// Bounds of an embedder's vectors (Elasticsearch's dense_vector indexes at most 4096).
const (
	MaxEmbedderDimensions = 4096
	MaxEmbedders          = 4
)

// Embedder describes one kind of vector the records and searches of an index carry, in
// Meilisearch's model. Changing an index's embedders rebuilds it: each embedder is a
// vector field of the physical index.
type Embedder struct {
	// Source says where the vectors come from; only userProvided for now.
	Source EmbedderSource `json:"source"`

	// Dimensions is the length of every vector of the embedder.
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=4096
	Dimensions int32 `json:"dimensions"`

	// Similarity compares vectors; cosine (the default).
	// +optional
	Similarity VectorSimilarity `json:"similarity,omitempty"`
}
