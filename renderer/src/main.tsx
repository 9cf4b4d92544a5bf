// Placeholder until the App frame lands: picks nothing yet, renders the name.
import { createRoot } from 'react-dom/client';

createRoot(document.getElementById('root')!).render(<p>Gatehouse</p>);
