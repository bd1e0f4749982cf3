/** The offline page's address (product §5 route guard); the console draws it itself. */
export const OFFLINE_PATH = '/offline.html';
