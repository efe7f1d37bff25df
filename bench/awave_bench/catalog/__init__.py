"""What the project is made of: paths, backend folders, toolchains."""
