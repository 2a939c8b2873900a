// prepareStep and the language model middleware.
export {};
