// Standalone development harness. Asynchronous boundary so the shared singletons are negotiated first.
import('./standalone/bootstrap');
