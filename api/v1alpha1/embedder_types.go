package v1alpha1

// EmbedderSource is where an embedder's vectors come from.
// +kubebuilder:validation:Enum=userProvided;openAI
type EmbedderSource string

// EmbedderUserProvided: records carry their vectors in _vectors.<name>, searches their
// query vector; Aisle checks the dimensions and computes nothing.
const EmbedderUserProvided EmbedderSource = "userProvided"

// EmbedderOpenAI: Aisle computes the vectors of records (from DocumentTemplate) and of
// queries with a REST embedding server speaking the OpenAI embeddings API
// (POST {url}/v1/embeddings), as OpenAI, Ollama, vLLM, Hugging Face TEI and LocalAI do.
const EmbedderOpenAI EmbedderSource = "openAI"

// VectorSimilarity is how two vectors of an embedder are compared.
// +kubebuilder:validation:Enum=cosine
type VectorSimilarity string

// SimilarityCosine is the cosine of the angle between two vectors (the default).
const SimilarityCosine VectorSimilarity = "cosine"

// Bounds of an embedder's vectors (Elasticsearch's dense_vector indexes at most 4096).
const (
	MaxEmbedderDimensions = 4096
	MaxEmbedders          = 4
	// DefaultDocumentTemplateMaxBytes is where a record's template text is cut when the
	// embedder names no bound: about a hundred words, what small models read well.
	DefaultDocumentTemplateMaxBytes = 400
	// MaxDocumentTemplateMaxBytes bounds the text of a record sent to the embedder.
	MaxDocumentTemplateMaxBytes = 8192
	// DefaultAPIKeySecretKey is the key of apiKeySecret's Secret holding the token when
	// the embedder names none.
	DefaultAPIKeySecretKey = "apiKey"
)

// Embedder describes one kind of vector the records and searches of an index carry, in
// Meilisearch's model. Changing an index's embedders rebuilds it: each embedder is a
// vector field of the physical index.
type Embedder struct {
	// Source says where the vectors come from: userProvided (records and searches carry
	// them) or openAI (a REST embedding server computes them).
	Source EmbedderSource `json:"source"`

	// Dimensions is the length of every vector of the embedder.
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=4096
	Dimensions int32 `json:"dimensions"`

	// Similarity compares vectors; cosine (the default).
	// +optional
	Similarity VectorSimilarity `json:"similarity,omitempty"`

	// URL is the base URL of an openAI embedder's server (the API posts to
	// {url}/v1/embeddings). Absent: the API server's --embedder-url (the chart's
	// embedding server).
	// +optional
	// +kubebuilder:validation:MaxLength=2048
	URL string `json:"url,omitempty"`

	// SendDimensions makes an openAI embedder send its dimensions in each request, for
	// the models that shorten their vectors to it (OpenAI's text-embedding-3). Off by
	// default: Ollama, TEI and other servers refuse or ignore the field, and the answer's
	// length is checked either way.
	// +optional
	SendDimensions bool `json:"sendDimensions,omitempty"`

	// Model is the model an openAI embedder asks the server for.
	// +optional
	// +kubebuilder:validation:MaxLength=256
	Model string `json:"model,omitempty"`

	// APIKeySecret names a Secret in the index's namespace whose key holds the token an
	// openAI embedder sends as Authorization: Bearer. Absent: no token.
	// +optional
	APIKeySecret *SecretKeySelector `json:"apiKeySecret,omitempty"`

	// DocumentTemplate makes an openAI embedder's text of a record: {{path}} is the
	// field's value (nested fields with dots, arrays joined with ", "; a missing field is
	// empty), as in "{{title}} by {{brand}}. {{description}}".
	// +optional
	// +kubebuilder:validation:MaxLength=2048
	DocumentTemplate string `json:"documentTemplate,omitempty"`

	// DocumentTemplateMaxBytes cuts a record's text (at a character's boundary) before
	// it is embedded. Default 400.
	// +optional
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=8192
	DocumentTemplateMaxBytes int32 `json:"documentTemplateMaxBytes,omitempty"`
}

// SecretKeySelector names a key of a Secret in the index's namespace.
type SecretKeySelector struct {
	// Name is the Secret's name.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	Name string `json:"name"`
	// Key is the Secret's key holding the token. Default apiKey.
	// +optional
	// +kubebuilder:validation:MaxLength=253
	Key string `json:"key,omitempty"`
}
