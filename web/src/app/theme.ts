import { createTheme } from '@mui/material/styles';

// Tests run without animations so that dialogs open and close at once.
const testing = import.meta.env.MODE === 'test';

export const theme = createTheme({
  ...(testing ? {
        transitions: {
          create: () => 'none',
          duration: { shortest: 0, shorter: 0, short: 0, standard: 0, complex: 0, enteringScreen: 0, leavingScreen: 0 },
        },
      } : {}),
  palette: {
    mode: 'light',
    primary: { main: '#1b5e8c', light: '#4f86b3', dark: '#0f3f62', contrastText: '#ffffff' },
    secondary: { main: '#2a9d8f' },
    // Darker than MUI's default orange (#ed6c02), which has a contrast of 3.1 with white.
    warning: { main: '#b45309' },
    // Darker than MUI's default blue (#0288d1, contrast 3.9 with white): outlined info chips are text.
    info: { main: '#0277bd' },
    background: { default: '#f5f7fa', paper: '#ffffff' },
    text: { primary: '#1c2530', secondary: '#5b6775' },
    divider: '#e3e8ef',
  },
  shape: { borderRadius: 10 },
  typography: {
    fontFamily: '"Inter", "Segoe UI", system-ui, -apple-system, "Helvetica Neue", Arial, sans-serif',
    h4: { fontWeight: 700, fontSize: '1.75rem', letterSpacing: '-0.01em' },
    h5: { fontWeight: 650 },
    h6: { fontWeight: 600 },
    button: { textTransform: 'none', fontWeight: 600 },
  },
  components: {
    MuiButton: { defaultProps: { disableElevation: true } },
    MuiCard: { defaultProps: { elevation: 0 } },
    MuiPaper: { styleOverrides: { outlined: { borderColor: '#e3e8ef' } } },
    MuiTableCell: { styleOverrides: { head: { fontWeight: 600, color: '#5b6775', backgroundColor: '#f9fafc' } } },
    MuiAppBar: { defaultProps: { elevation: 0 } },
    // MUI's default (action.active, 54 % black) is under 4.5:1 on the page background.
    MuiToggleButton: {
      styleOverrides: { root: ({ theme: t }) => ({ color: t.palette.text.secondary, '&.Mui-selected': { color: t.palette.text.primary } }) },
    },
    MuiButtonBase: {
      ...(testing ? { defaultProps: { disableRipple: true } } : {}),
      // A visible focus ring for keyboard users (WCAG 2.4.7): MUI's own focus cue on buttons, list
      // and menu items is a faint ripple or background tint. Inset, so a menu or list does not clip it.
      styleOverrides: { root: ({ theme: t }) => ({ '&.Mui-focusVisible': { outline: `2px solid ${t.palette.primary.main}`, outlineOffset: -2 } }) },
    },
  },
});
