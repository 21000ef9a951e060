"""Exceptions raised by dpnet. Each message names what is wrong and how to fix it."""


class ParameterError(ValueError):
    """A chapter or library parameter is missing, unknown or outside its allowed range."""


class DataError(RuntimeError):
    """A registered data file is missing, unreachable or fails its checksum."""


class ChapterError(RuntimeError):
    """A chapter failed to execute or the book failed to build."""


class ClusterError(RuntimeError):
    """The Dask scheduler named for the sweeps cannot be reached, or dask is not installed."""
